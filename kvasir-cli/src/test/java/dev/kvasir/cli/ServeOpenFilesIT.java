package dev.kvasir.cli;

import static dev.kvasir.testkit.PrometheusText.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.Blocking;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir serve} allowed 200 open files, flooded with more idle connections than that:
 * by default it stops accepting at 100 connections instead of running out of file
 * descriptors, warns, closes the idle connections after 10 s, and serves the client queued
 * behind them.
 */
class ServeOpenFilesIT {
  private static final String TOKEN = "open-files-token-0123";
  private static final int FILES = 200;
  /**
   * Idle connections: more than the process could open files for, and fewer than twice the
   * limit, so that the client queued behind them gets in when the first ones are closed.
   */
  private static final int FLOOD = 180;

  @TempDir Path dir;

  @Test
  void aFloodOfIdleConnections_doesNotExhaustFiles_andAQueuedClientIsServed() throws Exception {
    try (ServeProcess serve = ServeProcess.withOpenFileLimit(FILES, dir, Map.of(),
        "--db", dir.resolve("kv.sqlite3").toString(), "--port", "0", "--access-token", TOKEN)) {
      String url = serve.url();
      assertThat(metric(url, "kvasir_server_connections_max"))
          .as("200 files less half of them for the rest of the process").isEqualTo(100.0);
      List<Socket> flood = new ArrayList<>();
      try {
        for (int i = 0; i < FLOOD; i++) {
          flood.add(new Socket("127.0.0.1", URI.create(url).getPort()));
        }
        serve.awaitError(l -> l.contains("connections are open, the limit (--max-connections)"),
            Duration.ofSeconds(30));

        // Behind 80 idle connections in the listen queue: served once the first 100 are
        // closed for their silence, after 10 s.
        CompletableFuture<Object> queued = Blocking.call(() -> {
          try (Kv kv = Kv.open(url, KvOptions.defaults().with("accessToken", TOKEN))) {
            kv.set(KvKey.of("queued"), "served");
            return kv.get(KvKey.of("queued")).value();
          }
        });
        assertThat(queued.get(60, TimeUnit.SECONDS)).isEqualTo("served");
      } finally {
        for (Socket s : flood) {
          s.close();
        }
      }
      assertThat(metric(url, "kvasir_server_connection_limit_reached_total")).isPositive();
      assertThat(serve.errors()).as("the process never ran out of files")
          .noneMatch(l -> l.contains("Too many open files"));
      assertThat(serve.stop()).isZero();
    }
  }

  private static double metric(String url, String name) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url + "/metrics")).timeout(Duration.ofSeconds(60))
            .build(), HttpResponse.BodyHandlers.ofString());
    return sample(r.body(), name, "");
  }
}
