package dev.kvasir.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvClosedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;
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

  /** Runs batches as {@link Recorder}, but each waits until the test opens the gate. */
  static final class Gated extends CommitThread<Doubling> {
    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch firstBatch = new CountDownLatch(1);
    final ConcurrentLinkedQueue<Integer> ran = new ConcurrentLinkedQueue<>();

    Gated() {
      super("gated-commit-thread", 64);
      start();
    }

    int submitNumber(int n) {
      return submit(new Doubling(n));
    }

    @Override
    protected void runBatch(List<Doubling> batch) {
      firstBatch.countDown();
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      for (Doubling job : batch) {
        ran.add(job.n);
        job.ranOn = Thread.currentThread().getName();
        job.succeed(2 * job.n);
        job.afterCommit(List.of());
      }
    }

    @Override
    protected void stopped() {}

    @Override
    public void close() {
      gate.countDown(); // a failed assertion must not leave the batch, and close, waiting
      super.close();
    }
  }

  /** What a caller thread was told, and whether its interrupt was still set after. */
  record Told(Integer result, RuntimeException error, boolean interrupted) {}

  /**
   * An interrupted caller knows its commit's outcome: a job still queued is taken back and never
   * runs ("nothing was applied"); one a batch already holds is waited for and returned. Before,
   * both callers were told "it may still be applied", and both jobs ran.
   */
  @Test
  void anInterruptedCaller_isToldTheOutcome_andKeepsItsInterrupt() throws Exception {
    try (Gated g = new Gated()) {
      ExecutorService callers = Executors.newFixedThreadPool(3);
      Future<Integer> first = callers.submit(() -> g.submitNumber(1)); // inline, held at the gate
      assertThat(g.firstBatch.await(10, TimeUnit.SECONDS)).isTrue();
      Thread[] threads = new Thread[2];
      CompletableFuture<Told> taken = told(g, 2, threads, 0);
      awaitCommitThread("waits for the running batch",
          f -> f.getClassName().contains("ReentrantLock"));
      CompletableFuture<Told> queued = told(g, 3, threads, 1);
      awaitParked(threads[1]); // the third caller waits, its job in the queue
      threads[1].interrupt();
      Told third = queued.get(10, TimeUnit.SECONDS);
      assertThat(third.error()).hasMessageContaining("nothing was applied")
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(third.interrupted()).isTrue();

      threads[0].interrupt();
      Thread.sleep(200);
      assertThat(taken).as("a job its batch holds is waited for").isNotDone();
      g.gate.countDown();
      Told second = taken.get(10, TimeUnit.SECONDS);
      assertThat(second.result()).isEqualTo(4);
      assertThat(second.interrupted()).isTrue();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(2);
      assertThat(g.ran).containsExactly(1, 2);

      // Nobody waits any more: the next caller commits on its own thread again. The second
      // caller hears back just before the thread stops counting it as waiting (the other
      // order gained nothing, docs/performance.md §1 on W6), so wait for it to be idle.
      awaitCommitThread("waits for jobs", f -> f.getClassName().endsWith("LinkedBlockingQueue")
          && f.getMethodName().equals("take"));
      Doubling next = new Doubling(5);
      g.submit(next);
      assertThat(next.ranOn).isEqualTo(Thread.currentThread().getName());
      callers.shutdown();
    }
  }

  /** Submits {@code n} on a new thread, recorded in {@code threads[i]}. */
  private static CompletableFuture<Told> told(Gated g, int n, Thread[] threads, int i)
      throws InterruptedException {
    CompletableFuture<Told> told = new CompletableFuture<>();
    CountDownLatch started = new CountDownLatch(1);
    threads[i] = new Thread(() -> {
      started.countDown();
      try {
        int result = g.submitNumber(n);
        told.complete(new Told(result, null, Thread.currentThread().isInterrupted()));
      } catch (RuntimeException e) {
        told.complete(new Told(null, e, Thread.currentThread().isInterrupted()));
      }
    });
    threads[i].start();
    started.await();
    return told;
  }

  /** Waits until {@code caller} waits for its answer. */
  private static void awaitParked(Thread caller) throws InterruptedException {
    for (int i = 0; i < 1000 && caller.getState() != Thread.State.WAITING
        && caller.getState() != Thread.State.TIMED_WAITING; i++) {
      Thread.sleep(10);
    }
    assertThat(caller.getState()).as("the caller waits").isIn(Thread.State.WAITING,
        Thread.State.TIMED_WAITING);
  }

  /** Waits until a frame of the gated commit thread's stack matches {@code frame}. */
  private static void awaitCommitThread(String what, Predicate<StackTraceElement> frame)
      throws InterruptedException {
    for (int i = 0; i < 1000; i++) {
      for (var e : Thread.getAllStackTraces().entrySet()) {
        if (e.getKey().getName().equals("gated-commit-thread")
            && Stream.of(e.getValue()).anyMatch(frame)) {
          return;
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the commit thread never " + what);
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
