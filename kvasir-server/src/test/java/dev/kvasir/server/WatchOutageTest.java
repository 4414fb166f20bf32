package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvOptions;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client's watches that lose their server say so, and again once they are all back: once per
 * outage as the client sees it, so once, or twice when one watch notices the server gone only
 * after another has reconnected. Closed while it waits to reconnect, a watch ends at once.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
class WatchOutageTest {
  @Test
  void watchesThatLoseTheirServer_warn_andWarnAgainOnceAllAreBack() throws Exception {
    try (KvEngine engine = MemoryEngine.open()) {
      KvServer first = start(engine, 0);
      int port = first.port();
      try (Kv kv = client(first, "50");
          WatchStream a = kv.watch(List.of(KvKey.of("a")));
          WatchStream b = kv.watch(List.of(KvKey.of("b")))) {
        BlockingQueue<Object> seenAtA = read(a);
        BlockingQueue<Object> seenAtB = read(b);
        // Both streams open before the server goes: one still opening would be refused (503,
        // "could not be opened") rather than broken, and the outage told as that.
        assertThat(seenAtA.poll(10, TimeUnit.SECONDS)).isEqualTo(NONE);
        assertThat(seenAtB.poll(10, TimeUnit.SECONDS)).isEqualTo(NONE);
        try (CapturedStderr logged = new CapturedStderr()) {
          first.close();
          logged.await(log -> log.contains("broke"));
          try (KvServer second = start(engine, port)) {
            logged.await(log -> count(log, "broke") == count(log, "all connected"));
            assertThat(count(logged.text(), "broke")).as("%s", logged.text()).isBetween(1, 2);
            kv.set(KvKey.of("a"), "after");
            Object seen = seenAtA.poll(10, TimeUnit.SECONDS);
            while (NONE.equals(seen)) { // the snapshot the new stream began with
              seen = seenAtA.poll(10, TimeUnit.SECONDS);
            }
            assertThat(seen).isEqualTo("after");
          }
        }
      }
    }
  }

  @Test
  void aWatchWaitingToReconnect_endsAtOnceWhenClosed() throws Exception {
    try (KvEngine engine = MemoryEngine.open()) {
      KvServer server = start(engine, 0);
      // A first wait of 3 s before reconnecting, the longest that closing used to wait out.
      try (Kv kv = client(server, "3000")) {
        WatchStream watch = kv.watch(List.of(KvKey.of("a")));
        watch.next();
        Thread reader = new Thread(() -> {
          while (watch.hasNext()) {
            watch.next();
          }
        });
        try (CapturedStderr logged = new CapturedStderr()) {
          reader.start();
          server.close();
          logged.await(log -> log.contains("broke")); // now waiting to reconnect
          long closed = System.nanoTime();
          watch.close();
          reader.join(10_000);
          assertThat(reader.isAlive()).isFalse();
          // A blocked hasNext() returns false when the stream is closed (WatchStream's contract).
          assertThat(System.nanoTime() - closed).as("nanoseconds from close to the end")
              .isLessThan(1_500_000_000L);
        }
      }
    }
  }

  private static Kv client(KvServer server, String retryDelayMs) {
    return Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.retryDelayMs", retryDelayMs));
  }

  private static int count(String log, String text) {
    return log.split(text, -1).length - 1;
  }

  private static final String NONE = "(none)";

  /** The values {@code watch} sees, read on a thread of their own, as a watcher reads them. */
  private static BlockingQueue<Object> read(WatchStream watch) {
    BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      while (watch.hasNext()) {
        Object value = watch.next().get(0).value();
        seen.add(value == null ? NONE : value);
      }
    });
    reader.setDaemon(true);
    reader.start();
    return seen;
  }

  private static KvServer start(KvEngine engine, int port) {
    return KvServer.builder(engine).accessToken(Served.TOKEN).port(port).start();
  }
}
