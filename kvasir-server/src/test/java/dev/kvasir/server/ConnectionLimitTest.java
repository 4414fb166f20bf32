package dev.kvasir.server;

import static dev.kvasir.testkit.PrometheusText.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.testkit.RecordingMeterSink;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * {@code maxConnections}: at the limit a new client waits, unanswered, until a connection
 * closes, and is then served; the meters count it.
 */
class ConnectionLimitTest {

  @Test
  void atTheLimit_aNewClientWaits_untilAConnectionCloses() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MemoryEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .maxConnections(2).metrics(registry).start();
        Socket first = new Socket("127.0.0.1", server.port());
        Socket second = new Socket("127.0.0.1", server.port())) {
      assertThat(RecordingMeterSink.await(server::openConnections, 2)).isEqualTo(2.0);

      CompletableFuture<String> waiting = Blocking.call(() -> healthz(server));
      assertThatThrownBy(() -> waiting.get(500, TimeUnit.MILLISECONDS))
          .as("no third connection is accepted").isInstanceOf(TimeoutException.class);
      assertThat(server.openConnections()).isEqualTo(2);

      first.close();
      assertThat(waiting.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200");
      String metrics = registry.scrape();
      assertThat(sample(metrics, "kvasir_server_connections_max", "")).isEqualTo(2.0);
      assertThat(sample(metrics, "kvasir_server_connection_limit_reached_total", ""))
          .isGreaterThanOrEqualTo(1.0);
    }
  }

  @Test
  void aLimitBelowOne_isRefused() {
    KvServer.Builder b = KvServer.builder(MemoryEngine.open());
    assertThatThrownBy(() -> b.maxConnections(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConnections must be positive");
  }

  /** GET /healthz on a connection of its own; the status line of the answer. */
  private static String healthz(KvServer server) {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.getOutputStream().write(("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
