package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvOptions;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A watch its client closes leaves the server's count of open watches at once. Before, the
 * client told the server nothing until the next ping reached it, and the server noticed the
 * reset only when its ping after that failed: up to 10 s, during which the watch counted
 * against --max-watches.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
class WatchReleaseTest {
  @Test
  void aClosedWatch_isReleasedBeforeTheFirstPing() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (KvEngine engine = MemoryEngine.open();
        // Its first ping goes out 5 s after it starts, the only write that told a closed
        // stream from an open one.
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .metrics(registry).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN))) {
      WatchStream watch = kv.watch(List.of(KvKey.of("k")));
      watch.next();
      assertThat(openWatches(registry)).isEqualTo(1);
      watch.close();
      long deadline = System.nanoTime() + 2_000_000_000L; // well before that ping
      while (openWatches(registry) > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(openWatches(registry)).as("open watches 2 s after the close").isZero();
    }
  }

  private static double openWatches(PrometheusMeterRegistry registry) {
    return registry.get("kvasir.server.watches.open").gauge().value();
  }
}
