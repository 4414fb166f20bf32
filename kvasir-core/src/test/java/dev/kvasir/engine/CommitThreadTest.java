package dev.kvasir.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvClosedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CommitThreadTest {
  /** A job that doubles its number. */
  static final class Doubling extends CommitThread.Job<Integer> {
    final int n;
    volatile String ranOn;

    Doubling(int n) {
      this.n = n;
    }
  }

  /** Records how batches ran; a batch takes a millisecond, like a commit. */
  static final class Recorder extends CommitThread<Doubling> {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger mostAtOnce = new AtomicInteger();
    final ConcurrentLinkedQueue<Integer> batchSizes = new ConcurrentLinkedQueue<>();
    final AtomicInteger stops = new AtomicInteger();
    volatile boolean batchAfterStop;

    Recorder() {
      super("test-commit-thread", 64);
      start();
    }

    int submitNumber(int n) {
      return submit(new Doubling(n));
    }

    String submitAndTellThread(Doubling job) {
      submit(job);
      return job.ranOn;
    }

    @Override
    protected void runBatch(List<Doubling> batch) {
      mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
      batchAfterStop |= stops.get() > 0;
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      for (Doubling job : batch) {
        job.ranOn = Thread.currentThread().getName();
        job.succeed(2 * job.n);
        job.afterCommit(List.of());
      }
      batchSizes.add(batch.size());
      running.decrementAndGet();
    }

    @Override
    protected void stopped() {
      stops.incrementAndGet();
    }
  }

  @Test
  void lonelyCaller_commitsOnItsOwnThread() {
    try (Recorder r = new Recorder()) {
      String caller = Thread.currentThread().getName();
      assertThat(r.submitAndTellThread(new Doubling(1))).isEqualTo(caller);
    }
  }

  @Test
  void concurrentCallers_shareBatches_thatNeverOverlap_andEachGetsItsResult() throws Exception {
    Recorder r = new Recorder();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<List<Integer>>> results = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int first = t * 1000;
      results.add(pool.submit(() -> {
        List<Integer> out = new ArrayList<>();
        for (int i = first; i < first + 100; i++) {
          out.add(r.submitNumber(i));
        }
        return out;
      }));
    }
    for (int t = 0; t < 8; t++) {
      List<Integer> out = results.get(t).get();
      for (int i = 0; i < 100; i++) {
        assertThat(out.get(i)).isEqualTo(2 * (t * 1000 + i));
      }
    }
    pool.shutdown();
    r.close();
    assertThat(r.mostAtOnce.get()).as("batches at once").isOne();
    assertThat(r.batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(800);
    assertThat(r.batchSizes.stream().mapToInt(Integer::intValue).max().orElseThrow())
        .as("largest batch").isGreaterThan(1);
    assertThat(r.stops.get()).isOne();
    assertThat(r.batchAfterStop).isFalse();
  }

  @Test
  void close_isIdempotent_andLaterSubmitsFailClearly() {
    Recorder r = new Recorder();
    assertThat(r.submitNumber(21)).isEqualTo(42);
    r.close();
    r.close();
    assertThatThrownBy(() -> r.submitNumber(1)).isInstanceOf(KvClosedException.class);
    assertThat(r.stops.get()).isOne();
  }
}
