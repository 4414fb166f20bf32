package dev.kvasir.sqlite;

import dev.kvasir.KvException;
import dev.kvasir.spi.CommitThread;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one thread that writes. It takes every task pending at that moment and runs them in one
 * SQLite transaction (group commit: one fsync for all of them). A task that fails leaves no
 * trace while the others commit: the transaction is rolled back and run again without it. A
 * task's result is delivered, and its after-commit actions run, only once the transaction is
 * durable, so tasks must be safe to run again.
 */
final class Writer extends CommitThread<Writer.Pending<?>> {
  /** Work done inside the writer's transaction. */
  interface Task<T> {
    T run(Tx tx) throws SQLException;
  }

  private static final int MAX_BATCH = 256;

  private final Tx tx;
  private final Duration busyTimeout;
  private final String path;
  /** Whether the last failed attempt's transaction was rolled back; used by one batch at a time. */
  private boolean rolledBack = true;

  static final class Pending<T> extends CommitThread.Job<T> {
    final Task<T> task;

    Pending(Task<T> task) {
      this.task = task;
    }

    void run(Tx tx) throws SQLException {
      succeed(task.run(tx));
    }
  }

  Writer(Tx tx, Duration busyTimeout, String name) {
    super("kvasir-sqlite-writer " + name, MAX_BATCH);
    this.tx = tx;
    this.busyTimeout = busyTimeout;
    this.path = name;
    start();
  }

  /** Runs the task in the next group commit and waits until it is durable. */
  <T> T execute(Task<T> task) {
    return submit(new Pending<>(task));
  }

  @Override
  protected void stopped() {
    tx.close();
  }

  @Override
  protected void runBatch(List<Pending<?>> batch) {
    // Optimistic: run every task in one transaction without savepoints. A task that fails is
    // rare (a sum on a string); then everything rolls back and the others run again without it.
    List<Pending<?>> active = new ArrayList<>(batch);
    Busy busy = null;
    while (!active.isEmpty()) {
      try {
        try {
          runOnce(active);
          break;
        } catch (SQLException e) {
          busy = busy != null ? busy : new Busy(busyTimeout, "commit");
          busy.backOff(e); // the whole batch runs again
        }
      } catch (TaskFailed f) {
        tx.takeAfterCommit();
        f.pending.fail(f.cause);
        active.remove(f.pending);
      } catch (SQLException | RuntimeException e) {
        tx.takeAfterCommit(); // nothing of the batch committed
        RuntimeException failure;
        if (e instanceof SQLException sql && StorageFault.is(sql)) {
          failure = StorageFault.unavailable(path, sql, !rolledBack);
        } else {
          failure = e instanceof RuntimeException r ? r
              : new KvException("database error: " + e.getMessage(), e);
        }
        for (Pending<?> p : active) {
          p.fail(failure);
        }
        break;
      }
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
    tx.beginImmediate();
    try {
      for (Pending<?> p : batch) {
        try {
          p.run(tx);
        } catch (SQLException e) {
          if (Busy.isBusy(e) || StorageFault.is(e)) {
            throw e; // the whole batch retries, or fails together
          }
          throw new TaskFailed(p, new KvException("database error: " + e.getMessage(), e));
        } catch (RuntimeException e) {
          throw new TaskFailed(p, e);
        }
        p.afterCommit(tx.takeAfterCommit());
      }
      tx.commit();
    } catch (SQLException | RuntimeException e) {
      rolledBack = tx.abandon();
      throw e;
    }
  }
}
