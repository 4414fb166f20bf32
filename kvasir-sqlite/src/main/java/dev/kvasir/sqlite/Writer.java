package dev.kvasir.sqlite;

import dev.kvasir.KvClosedException;
import dev.kvasir.KvException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The one thread that writes. It takes every task pending at that moment and runs them in one
 * SQLite transaction (group commit: one fsync for all of them). A task that fails leaves no
 * trace while the others commit: the transaction is rolled back and run again without it. A
 * task's result is delivered, and its after-commit actions run, only once the transaction is
 * durable, so tasks must be safe to run again.
 */
final class Writer implements AutoCloseable {
  /** Work done inside the writer's transaction. */
  interface Task<T> {
    T run(Tx tx) throws SQLException;
  }

  private static final int MAX_BATCH = 256;
  private static final Pending<Void> POISON = new Pending<>(tx -> null);

  private final Tx tx;
  private final Duration busyTimeout;
  private final LinkedBlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private boolean closed; // guarded by queue

  private static final class Pending<T> {
    final Task<T> task;
    final CompletableFuture<T> future = new CompletableFuture<>();
    T result;
    RuntimeException error;
    List<Runnable> afterCommit = List.of();

    Pending(Task<T> task) {
      this.task = task;
    }

    void run(Tx tx) throws SQLException {
      result = task.run(tx);
    }

    void complete() {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        future.complete(result);
      }
    }
  }

  Writer(Tx tx, Duration busyTimeout, String name) {
    this.tx = tx;
    this.busyTimeout = busyTimeout;
    this.thread = new Thread(this::loop, "kvasir-sqlite-writer " + name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Runs the task in the next group commit and waits until it is durable. */
  <T> T execute(Task<T> task) {
    Pending<T> p = new Pending<>(task);
    synchronized (queue) {
      if (closed) {
        throw new KvClosedException();
      }
      queue.add(p); // before the poison task, so it runs
    }
    try {
      return p.future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new KvException("commit failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted while waiting for a commit; it may still be applied", e);
    }
  }

  private void loop() {
    List<Pending<?>> batch = new ArrayList<>();
    boolean stop = false;
    while (!stop) {
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        continue; // only close() stops the writer, through the poison task
      }
      queue.drainTo(batch, MAX_BATCH - 1);
      int poison = batch.indexOf(POISON);
      if (poison >= 0) {
        stop = true;
        batch.subList(poison, batch.size()).clear();
      }
      runBatch(batch);
      batch.clear();
    }
    for (Pending<?> p; (p = queue.poll()) != null; ) {
      p.future.completeExceptionally(new KvClosedException());
    }
    tx.close();
  }

  private void runBatch(List<Pending<?>> batch) {
    if (batch.isEmpty()) {
      return;
    }
    // Optimistic: run every task in one transaction without savepoints. A task that fails is
    // rare (a sum on a string); then everything rolls back and the others run again without it.
    List<Pending<?>> active = new ArrayList<>(batch);
    while (!active.isEmpty()) {
      try {
        Busy.retry(busyTimeout, "commit", () -> {
          runOnce(active);
          return null;
        });
        break;
      } catch (TaskFailed f) {
        tx.takeAfterCommit();
        f.pending.error = f.cause;
        f.pending.afterCommit = List.of();
        active.remove(f.pending);
      } catch (SQLException | RuntimeException e) {
        tx.takeAfterCommit(); // nothing of the batch committed
        RuntimeException failure = e instanceof RuntimeException r ? r
            : new KvException("database error: " + e.getMessage(), e);
        for (Pending<?> p : active) {
          p.error = failure;
          p.afterCommit = List.of();
        }
        break;
      }
    }
    for (Pending<?> p : batch) {
      p.complete();
    }
    for (Pending<?> p : batch) {
      p.afterCommit.forEach(Runnable::run);
    }
  }

  /** One task of a batch failed on its own; the transaction was rolled back. */
  private static final class TaskFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Pending<?> pending;
    final RuntimeException cause;

    TaskFailed(Pending<?> pending, RuntimeException cause) {
      super(null, null, false, false);
      this.pending = pending;
      this.cause = cause;
    }
  }

  private void runOnce(List<Pending<?>> batch) throws SQLException {
    tx.takeAfterCommit(); // drop what an attempt that failed half-way registered
    tx.execute("begin immediate");
    try {
      for (Pending<?> p : batch) {
        p.error = null;
        try {
          p.run(tx);
        } catch (SQLException e) {
          if (Busy.isBusy(e)) {
            throw e; // the whole batch retries
          }
          throw new TaskFailed(p, new KvException("database error: " + e.getMessage(), e));
        } catch (RuntimeException e) {
          throw new TaskFailed(p, e);
        }
        p.afterCommit = tx.takeAfterCommit();
      }
      tx.execute("commit");
    } catch (SQLException | RuntimeException e) {
      try {
        tx.execute("rollback");
      } catch (SQLException ignored) {
        // no transaction left to roll back
      }
      throw e;
    }
  }

  /** Finishes the tasks already queued, then stops the thread and closes the connection. */
  @Override
  public void close() {
    synchronized (queue) {
      if (closed) {
        return;
      }
      closed = true;
      queue.add(POISON);
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
