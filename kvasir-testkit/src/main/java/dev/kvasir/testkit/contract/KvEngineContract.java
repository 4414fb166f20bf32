package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvClosedException;
import dev.kvasir.KvEntry;
import dev.kvasir.ListSelector;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.testkit.Differential;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The one contract every storage engine passes. An engine's test class extends it and opens a
 * fresh engine in {@link #openEngine}:
 *
 * <pre>{@code
 * class SqliteEngineTest extends KvEngineContract {
 *   protected KvEngine openEngine(Path dir) { return SqliteEngine.open(dir.resolve("kv.sqlite3")); }
 * }
 * }</pre>
 *
 * <p>The cases are spread over a chain of abstract classes, one theme each (read/write, list,
 * atomic, limits, watch, queue); this class adds concurrency, closed-database behaviour and the
 * differential test against {@link MemoryEngine}. Engines without queues override {@link
 * #supportsQueues()}.
 */
public abstract class KvEngineContract extends QueueContract {
  /** Operations of the differential test; at least 10 000. */
  protected int differentialOperations() {
    return 10_000;
  }

  @Test
  void checkAndSet_8ThreadsIncrementingOneCounter_reachExactCount() throws Exception {
    int threads = 8;
    int each = 40;
    kv.set(key("counter"), 0);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> retries = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        retries.add(pool.submit(() -> {
          int conflicts = 0;
          for (int i = 0; i < each; i++) {
            while (true) {
              KvEntry e = kv.get(key("counter"));
              double next = (Double) e.value() + 1;
              if (kv.atomic().check(e).set(key("counter"), next).commit().ok()) {
                break;
              }
              conflicts++;
            }
          }
          return conflicts;
        }));
      }
      for (Future<Integer> f : retries) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(kv.get(key("counter")).value()).isEqualTo((double) threads * each);
  }

  @Test
  void close_isIdempotent_andLaterCallsFailClearly() {
    kv.set(key("a"), 1);
    kv.close();
    kv.close();
    assertThatThrownBy(() -> kv.get(key("a"))).isInstanceOf(KvClosedException.class)
        .hasMessage("database is closed");
    assertThatThrownBy(() -> kv.set(key("a"), 1)).isInstanceOf(KvClosedException.class);
    assertThatThrownBy(() -> kv.list(ListSelector.prefix(key("a"))))
        .isInstanceOf(KvClosedException.class);
    assertThatThrownBy(() -> kv.atomic()).isInstanceOf(KvClosedException.class);
    assertThatThrownBy(() -> kv.watch(List.of(key("a")))).isInstanceOf(KvClosedException.class);
    assertThatThrownBy(() -> kv.listenQueue(m -> { })).isInstanceOf(KvClosedException.class);
    assertThatThrownBy(() -> kv.enqueue("x")).isInstanceOf(KvClosedException.class);
  }

  @Test
  void close_whileListing_failsTheNextBatchClearly() {
    for (int i = 0; i < 10; i++) {
      kv.set(key("l", i), i);
    }
    var it = kv.list(ListSelector.prefix(key("l")), dev.kvasir.ListOptions.defaults().batchSize(2));
    it.next();
    it.next();
    kv.close();
    assertThatThrownBy(it::hasNext).isInstanceOf(KvClosedException.class);
  }

  @Test
  void reopen_persistentEngine_keepsEntriesVersionstampsAndOrder() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(persistent(), "the engine is not persistent");
    kv.set(key("foo"), "bar");
    var last = kv.atomic().set(key("a", 1), 1).sum(key("n"), 5).commit().versionstamp();
    var before = kv.getMany(List.of(key("foo"), key("a", 1), key("n")));
    kv.close();
    kv = Kv.of(openEngine(engineDir));
    assertThat(kv.getMany(List.of(key("foo"), key("a", 1), key("n")))).isEqualTo(before);
    assertThat(kv.set(key("foo"), "baz").versionstamp()).isGreaterThan(last);
  }

  @Test
  void differential_randomOperations_agreeWithMemoryEngine() {
    try (Kv reference = Kv.of(MemoryEngine.open())) {
      Differential.run(kv, reference, 20261121L, differentialOperations());
    }
  }
}
