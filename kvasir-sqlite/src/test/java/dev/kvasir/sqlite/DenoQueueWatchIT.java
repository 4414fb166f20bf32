package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.QueueListener;
import dev.kvasir.WatchStream;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.JsValues;
import dev.kvasir.value.Undefined;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queues and watches shared with the real Deno through one SQLite file. */
class DenoQueueWatchIT {
  @TempDir Path dir;
  private DenoPeer deno;

  @BeforeEach
  void findDeno() {
    deno = DenoPeer.require(dir.resolve("deno"));
  }

  /** The value {@code rich()} of queue.ts, as Kvasir reads it. */
  private static Map<String, Object> rich() {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("text", "hé ✓");
    v.put("n", 42.5);
    v.put("big", new BigInteger("12345678901234567890"));
    v.put("bytes", new byte[] {1, 2, 3});
    v.put("when", Instant.ofEpochMilli(1_700_000_000_000L));
    v.put("set", new JsSet().add(1.0).add("a"));
    v.put("map", new JsMap().put("k", Arrays.asList(true, null, Undefined.INSTANCE)));
    return v;
  }

  private static EnqueueOptions deadLetterTo(String name) {
    return EnqueueOptions.defaults().keysIfUndelivered(List.of(KvKey.of("dlq", name)))
        .backoffSchedule(List.of());
  }

  @Test
  void kvasirEnqueues_denoListenerReceivesEqualValues_andDeadLettersTheFailure() throws Exception {
    String file = dir.resolve("to-deno.sqlite3").toString();
    try (Kv kv = Kv.open(file)) {
      kv.enqueue(rich());
      kv.enqueue("fail", deadLetterTo("fromKvasir"));
    }
    assertThat(deno.run("queue.ts", "listen", file)).endsWith("done");
    try (Kv kv = Kv.open(file)) {
      assertThat(kv.get(KvKey.of("same")).value()).as("Deno saw rich()").isEqualTo(true);
      Object got = kv.get(KvKey.of("got")).value();
      assertThat(JsValues.deepEquals(got, rich())).as("%s", got).isTrue();
      assertThat(kv.get(KvKey.of("dlq", "fromKvasir")).value()).isEqualTo("fail");
    }
  }

  @Test
  void denoEnqueues_kvasirListenerReceivesEqualValues_andDeadLettersForDeno() throws Exception {
    String file = dir.resolve("from-deno.sqlite3").toString();
    assertThat(deno.run("queue.ts", "enqueue", file)).isEqualTo("done");
    List<Object> received = Collections.synchronizedList(new ArrayList<>());
    try (Kv kv = Kv.open(file);
        QueueListener listener = kv.listenQueue(m -> {
          if ("fail".equals(m)) {
            throw new IllegalStateException("failing on purpose");
          }
          received.add(m);
        })) {
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        while (received.isEmpty() || !kv.get(KvKey.of("dlq", "fromDeno")).exists()) {
          Thread.sleep(20);
        }
      });
      assertThat(received).hasSize(1);
      assertThat(JsValues.deepEquals(received.get(0), rich())).as("%s", received).isTrue();
    }
    assertThat(deno.run("queue.ts", "dlq", file)).isEqualTo("\"fail\"");
  }

  @Test
  void denoWrites_kvasirWatchSeesEveryChange_andTheExpiry() throws Exception {
    String file = dir.resolve("watched.sqlite3").toString();
    int n = 20;
    List<Long> delays = new ArrayList<>();
    try (Kv kv = Kv.open(file);
        WatchStream watch = kv.watch(List.of(KvKey.of("w"), KvKey.of("e")))) {
      assertThat(watch.next()).noneMatch(KvEntry::exists);
      Process writer = deno.start("watched_writes.ts", file, String.valueOf(n));
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        double last = -1;
        boolean expiringSeen = false;
        while (true) { // until ["e"] was seen set, then gone
          List<KvEntry> e = watch.next();
          if (e.get(0).exists()) {
            @SuppressWarnings("unchecked")
            Map<String, Double> w = (Map<String, Double>) e.get(0).value();
            if (w.get("i") > last) {
              last = w.get("i");
              delays.add(System.currentTimeMillis() - w.get("sentAt").longValue());
            }
          }
          if (e.get(1).exists()) {
            assertThat(e.get(1).value()).isEqualTo("soon gone");
            expiringSeen = true;
          } else if (expiringSeen) {
            break;
          }
        }
        assertThat(last).as("the last write was seen").isEqualTo(n - 1);
      });
      DenoPeer.finish(writer, "watched_writes.ts");
    }
    Collections.sort(delays);
    System.out.printf("Deno → Kvasir watch: delay median %d ms, max %d ms (%d emissions)%n",
        delays.get(delays.size() / 2), delays.get(delays.size() - 1), delays.size());
  }
}
