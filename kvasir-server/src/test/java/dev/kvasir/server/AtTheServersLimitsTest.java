package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.QueueListener;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvOptions;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.Blocking;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server at one of its limits answers 429, "try again shortly" (docs/kv-connect.md §9, §10).
 * Kvasir's client tries again, as it does after a 5xx; before, a queue listener that met one
 * stopped for good, and a watch ended with an exception.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
class AtTheServersLimitsTest {
  private static Kv client(KvServer server) {
    return Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.maxRetries", "2").with("remote.retryDelayMs", "50"));
  }

  @Test
  void aListenerRefusedAPoll_keepsListening() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (KvEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .maxQueuePolls(1).metrics(registry).start();
        Kv first = client(server);
        Kv second = client(server)) {
      BlockingQueue<Object> got = new LinkedBlockingQueue<>();
      try (QueueListener a = first.listenQueue(got::add);
          QueueListener b = second.listenQueue(got::add)) {
        awaitRefusedPoll(registry); // one waits on the server; the other's polls are refused
        Set<Object> received = new HashSet<>();
        for (int i = 0; i < 4; i++) {
          first.enqueue("m" + i);
          received.add(got.poll(20, TimeUnit.SECONDS));
        }
        assertThat(received).containsExactlyInAnyOrder("m0", "m1", "m2", "m3");
        assertThat(a.isRunning()).isTrue();
        assertThat(b.isRunning()).as("the listener that met 429").isTrue();
      }
    }
  }

  private static void awaitRefusedPoll(MeterRegistry registry) throws InterruptedException {
    for (int i = 0; i < 2_000; i++) {
      Timer refused = registry.find("kvasir.server.requests").tags("endpoint", "queue_next",
          "status", "429").timer();
      if (refused != null && refused.count() > 0) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no queue poll was refused with 429");
  }

  @Test
  void aWatchRefusedForNow_opensOnceThereIsRoom() throws Exception {
    try (KvEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .maxWatches(1).start();
        Kv kv = client(server)) {
      kv.set(KvKey.of("k"), "v");
      WatchStream held = kv.watch(List.of(KvKey.of("k")));
      assertThat(held.next().get(0).value()).isEqualTo("v");
      try (CapturedStderr logged = new CapturedStderr();
          WatchStream waiting = kv.watch(List.of(KvKey.of("k")))) {
        CompletableFuture<Object> first = Blocking.call(
            () -> waiting.next().get(0).value());
        logged.await(log -> log.contains("could not be opened")); // refused with 429, retrying
        assertThat(first).isNotDone();
        held.close();
        assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo("v");
        // Refused from the start, the stream never broke: the log says what happened.
        assertThat(logged.text()).contains("could not be opened (java.io.IOException: status"
            + " 429").contains("all connected").doesNotContain("broke");
      }
    }
  }
}
