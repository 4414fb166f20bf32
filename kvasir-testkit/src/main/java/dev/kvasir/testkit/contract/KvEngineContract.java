package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.testkit.Differential;
import dev.kvasir.value.KvU64;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The one contract every storage engine passes: each theme ({@link ReadWriteContract}, {@link
 * ListContract}, {@link AtomicContract}, {@link LimitsContract}, {@link WatchContract}, {@link
 * QueueContract}, {@link QueueWakeUpContract}, {@link ApiContract}, {@link AsyncContract},
 * {@link MappingContract}, {@link MetersContract}, and {@link Whole} for concurrency, closing
 * and the differential test against {@link MemoryEngine}) runs as a nested class against the
 * engine an extending test opens:
 *
 * <pre>{@code
 * class SqliteEngineTest extends KvEngineContract {
 *   public KvEngine openEngine(Path dir) {
 *     return SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3").toString()));
 *   }
 * }
 * }</pre>
 *
 * A theme runs alone when a test class extends it directly and returns the engine from {@link
 * ContractBase#subject()}. Engines without queues override {@link #supportsQueues()}.
 */
public abstract class KvEngineContract implements EngineUnderTest {
  /** Operations of the differential test; at least 10 000. */
  protected int differentialOperations() {
    return 10_000;
  }

  @Nested
  class ReadWrite extends ReadWriteContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Lists extends ListContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Atomic extends AtomicContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Limits extends LimitsContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Watch extends WatchContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Queue extends QueueContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class QueueWakeUp extends QueueWakeUpContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Async extends AsyncContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Api extends ApiContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Mapping extends MappingContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Meters extends MetersContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  @Nested
  class Copies extends CopyContract {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }
  }

  /** What needs the whole engine: concurrency, closing, reopening, the differential test. */
  @Nested
  class Whole extends ContractBase {
    @Override
    protected EngineUnderTest subject() {
      return KvEngineContract.this;
    }

    /**
     * Callers interrupted while they commit know what happened: a sum that returned was applied
     * once, one that threw was not applied at all (docs/atomic.md §9). Before, a caller whose
     * commit waited in a queue was told "it may still be applied", and it always was.
     */
    @Test
    void interruptedCommits_areAppliedExactlyWhenTheirCallersAreToldSo() throws Exception {
      int threads = 4;
      AtomicLong acknowledged = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
      List<Thread> callers = startCallers(threads, () -> {
        while (!stop.get()) {
          try {
            kv.sum(key("sums"), 1);
            acknowledged.incrementAndGet();
          } catch (KvException e) {
            if (!(e.getCause() instanceof InterruptedException)
                || !e.getMessage().contains("nothing was applied")) {
              unexpected.add(e);
            }
          }
          Thread.interrupted();
        }
      });
      Random random = new Random(42);
      long end = System.nanoTime() + 1_500_000_000L;
      int interrupts = 0;
      while (System.nanoTime() < end) {
        callers.get(random.nextInt(threads)).interrupt();
        interrupts++;
        Thread.sleep(0, 300_000);
      }
      stop.set(true);
      awaitEnd(callers);
      assertThat(unexpected).as("failures other than a commit taken back").isEmpty();
      assertThat(interrupts).isGreaterThan(100);
      KvEntry sums = kv.get(key("sums"));
      assertThat(((KvU64) sums.value()).unsignedBits()).as("sums applied")
          .isEqualTo(acknowledged.get());
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
      var it = kv.list(ListSelector.prefix(key("l")), ListOptions.defaults().batchSize(2));
      it.next();
      it.next();
      kv.close();
      assertThatThrownBy(it::hasNext).isInstanceOf(KvClosedException.class);
    }

    /**
     * Closing the database while threads commit and read: a commit that returned is stored, one
     * refused as closed is not, and nothing fails otherwise. Kvasir's KV Connect client aborted
     * the writes it had sent and reported them closed, although the server had applied some (55
     * of 80 in one run); the KV/DAG engine closed its log under a commit and under reads.
     */
    @Test
    void closingWhileCommitting_storesExactlyTheAcknowledgedCommits() throws Exception {
      org.junit.jupiter.api.Assumptions.assumeTrue(persistent(), "the engine is not persistent");
      AtomicLong acknowledged = new AtomicLong();
      List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
      List<Thread> callers = startCallers(4, () -> {
        while (true) {
          try {
            kv.sum(key("sums"), 1);
            acknowledged.incrementAndGet();
            kv.get(key("sums"));
          } catch (KvClosedException e) {
            return;
          } catch (RuntimeException e) {
            unexpected.add(e);
            return;
          }
        }
      });
      Thread.sleep(300);
      kv.close();
      awaitEnd(callers);
      assertThat(unexpected).as("failures other than being closed").isEmpty();
      assertThat(acknowledged.get()).isPositive();
      kv = Kv.of(openEngine(engineDir));
      assertThat(((KvU64) kv.get(key("sums")).value()).unsignedBits()).as("sums stored")
          .isEqualTo(acknowledged.get());
    }

    /** {@code count} threads, started, each running {@code body}. */
    private List<Thread> startCallers(int count, Runnable body) {
      List<Thread> callers = new ArrayList<>();
      for (int t = 0; t < count; t++) {
        Thread caller = new Thread(body);
        callers.add(caller);
        caller.start();
      }
      return callers;
    }

    /** Waits up to 30 s for each caller to end; fails if one does not. */
    private void awaitEnd(List<Thread> callers) throws InterruptedException {
      for (Thread caller : callers) {
        caller.join(30_000);
        assertThat(caller.isAlive()).as("a caller still committing").isFalse();
      }
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
        Differential.run(kv, reference, 20261121L,
              differentialOperations());
      }
    }
  }
}
