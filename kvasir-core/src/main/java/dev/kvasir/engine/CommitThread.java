package dev.kvasir.engine;

import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.MeterSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleConsumer;

/**
 * The one thread of an engine that commits (group commit). Callers {@link #submit} jobs and wait;
 * the thread takes every job pending at that moment, up to a maximum, and hands them to {@link
 * #runBatch} together, so that they share one transaction. Once the batch is done, every job's
 * caller gets its result or error, then the jobs' after-commit actions run. When nothing is
 * being committed and nothing waits, a caller runs its job as a batch of one on its own thread
 * instead; batches never overlap either way. {@link #close()} lets the jobs already queued
 * finish, then stops.
 *
 * @param <J> the engine's job type
 */
public abstract class CommitThread<J extends CommitThread.Job<?>> implements AutoCloseable {
  /** One caller's work, with what it produced. */
  public abstract static class Job<T> {
    private final CompletableFuture<T> future = new CompletableFuture<>();
    private T result;
    private RuntimeException error;
    private List<Runnable> afterCommit = List.of();

    /** A job not yet run. */
    protected Job() {}

    /** Records the job's result, clearing an error from an earlier attempt. */
    public void succeed(T value) {
      result = value;
      error = null;
    }

    /** Records that the job failed; its after-commit actions are dropped. */
    public void fail(RuntimeException e) {
      error = e;
      afterCommit = List.of();
    }

    /** Actions to run once the batch committed, e.g. waking watchers. */
    public void afterCommit(List<Runnable> actions) {
      afterCommit = actions;
    }

    private void complete() {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        future.complete(result);
      }
    }
  }

  private static final Object STOP = new Object();

  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  /** Held while a batch runs, by the commit thread or by a caller committing inline. */
  private final ReentrantLock batchLock = new ReentrantLock();
  private final int maxBatch;
  private final Thread thread;
  /** Records each batch's size; nothing until meters are bound. */
  private volatile DoubleConsumer batchSizes = size -> { };
  private boolean closed; // guarded by queue
  private int waiting; // callers whose jobs are queued or running on the thread; guarded by queue

  protected CommitThread(String name, int maxBatch) {
    this.maxBatch = maxBatch;
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
  }

  /**
   * Reports the size of every batch to {@code sink} as {@code kvasir.engine.commit.batch.size}:
   * how many commits shared one transaction (docs/operations.md §5).
   */
  public void bindMeters(MeterSink sink) {
    batchSizes = batchSizes.andThen(sink.summary("kvasir.engine.commit.batch.size",
        "Commits that shared one transaction (group commit)"));
  }

  /** Starts the thread; call at the end of the subclass's constructor. */
  protected final void start() {
    thread.start();
  }

  /**
   * Commits the job in the next batch and waits for it.
   *
   * @throws KvClosedException if the thread was closed before the job ran
   */
  @SuppressWarnings("unchecked")
  protected final <T> T submit(Job<T> job) {
    boolean inline = false;
    synchronized (queue) {
      if (closed) {
        throw new KvClosedException();
      }
      // Nobody else is committing or waiting: commit on the caller's thread and save the two
      // thread switches of a hand-over. Otherwise queue up for the commit thread's next batch,
      // which the others' jobs share.
      if (waiting == 0 && queue.isEmpty() && !batchLock.isHeldByCurrentThread()
          && batchLock.tryLock()) {
        inline = true;
      } else {
        queue.add(job); // before the stop marker, so it runs
        waiting++;
      }
    }
    if (inline) {
      List<J> batch = List.of((J) job);
      try {
        runAndComplete(batch);
      } finally {
        batchLock.unlock();
      }
      job.afterCommit.forEach(Runnable::run);
    }
    try {
      return job.future.get();
    } catch (ExecutionException e) {
      throw Outcomes.failure(e, "commit");
    } catch (InterruptedException e) {
      return afterInterrupt(job, e);
    }
  }

  /**
   * The caller was interrupted while its job waited. A job still queued is taken back, so it
   * never runs, and the caller hears so; a job the thread has taken is in a batch whose outcome
   * comes soon, so the caller waits for it and gets it as if not interrupted. Either way the
   * outcome is known, and the interrupt stays set for the caller to act on (docs/atomic.md §9).
   */
  private <T> T afterInterrupt(Job<T> job, InterruptedException interrupt) {
    try {
      synchronized (queue) {
        if (queue.remove(job)) {
          waiting--;
          throw new KvException("interrupted before the commit ran: nothing was applied",
              interrupt);
        }
      }
      return Outcomes.awaitUninterruptibly(job.future, "commit");
    } finally {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Queues the job for the next batch and returns at once; the future completes on the commit
   * thread once the batch is durable (callers hand their own work to another executor). Never
   * commits on the caller's thread.
   *
   * @throws KvClosedException if the thread was closed
   */
  protected final <T> CompletableFuture<T> submitAsync(Job<T> job) {
    synchronized (queue) {
      if (closed) {
        throw new KvClosedException();
      }
      queue.add(job);
      waiting++;
    }
    return job.future;
  }

  /**
   * Runs the jobs in one transaction, recording each one's result or error. Must not throw:
   * every failure belongs to some job.
   */
  protected abstract void runBatch(List<J> batch);

  /** Releases what the thread holds (its connection); runs on the thread, last. */
  protected abstract void stopped();

  @SuppressWarnings("unchecked")
  private void loop() {
    List<Object> taken = new ArrayList<>();
    List<J> batch = new ArrayList<>();
    boolean stop = false;
    while (!stop) {
      try {
        taken.add(queue.take());
      } catch (InterruptedException e) {
        continue; // only close() stops the thread, through the stop marker
      }
      queue.drainTo(taken, maxBatch - 1);
      for (Object o : taken) {
        if (o == STOP) {
          stop = true;
          break;
        }
        batch.add((J) o);
      }
      if (!batch.isEmpty()) {
        batchLock.lock();
        try {
          runAndComplete(batch);
        } finally {
          batchLock.unlock();
        }
        doneWaiting(batch.size());
        for (Job<?> job : batch) {
          job.afterCommit.forEach(Runnable::run);
        }
      }
      taken.clear();
      batch.clear();
    }
    for (Object o; (o = queue.poll()) != null; ) {
      ((Job<?>) o).future.completeExceptionally(new KvClosedException());
    }
    batchLock.lock(); // a caller may still be committing inline
    try {
      stopped();
    } finally {
      batchLock.unlock();
    }
  }

  private void runAndComplete(List<J> batch) {
    runBatch(batch);
    batchSizes.accept(batch.size());
    for (Job<?> job : batch) {
      job.complete();
    }
  }

  /** The queued jobs of a batch no longer wait. */
  private void doneWaiting(int jobs) {
    synchronized (queue) {
      waiting -= jobs;
    }
  }

  /** Finishes the jobs already queued, then stops the thread. */
  @Override
  public void close() {
    synchronized (queue) {
      if (closed) {
        return;
      }
      closed = true;
      queue.add(STOP);
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
