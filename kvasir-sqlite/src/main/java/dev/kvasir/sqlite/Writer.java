package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import dev.kvasir.engine.CommitThread;
import dev.kvasir.jdbc.TxTask;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes. It takes every task pending at that moment and runs them in one
 * SQLite transaction (group commit: one fsync for all of them). A task that fails leaves no
 * trace while the others commit: the transaction is rolled back and run again without it. A
 * task's result is delivered, and its after-commit actions run, only once the transaction is
 * durable, so tasks must be safe to run again.
 */
final class Writer extends CommitThread<TxTask.Job<Tx, ?>> {
  /** Work done inside the writer's transaction (or a reader's). */
  interface Task<T> extends TxTask<Tx, T> {}

  private static final int MAX_BATCH = 256;

  private static final Logger LOG = LoggerFactory.getLogger(Writer.class);

  private final Tx tx;
  private final Duration busyTimeout;
  private final String path;
  private final SqliteMeters meters;
  /** Whether the last batch failed for its storage (a full disk): logged once, not per batch. */
  private boolean storageFailing;
  /** Whether the last failed attempt's transaction was rolled back; used by one batch at a time. */
  private boolean rolledBack = true;

  Writer(Tx tx, Duration busyTimeout, String name, SqliteMeters meters) {
    super("kvasir-sqlite-writer " + name, MAX_BATCH);
    this.tx = tx;
    this.busyTimeout = busyTimeout;
    this.path = name;
    this.meters = meters;
    start();
  }

  /** Runs the task in the next group commit and waits until it is durable. */
  <T> T execute(Task<T> task) {
    return submit(new TxTask.Job<>(task));
  }

  /** Runs the task in the next group commit; the future completes once it is durable. */
  <T> CompletableFuture<T> executeAsync(Task<T> task) {
    return submitAsync(new TxTask.Job<>(task));
  }

  @Override
  protected void stopped() {
    tx.close();
  }

  @Override
  protected void runBatch(List<TxTask.Job<Tx, ?>> batch) {
    // Optimistic: run every task in one transaction without savepoints. A task that fails is
    // rare (a sum on a string); then everything rolls back and the others run again without it.
    List<TxTask.Job<Tx, ?>> active = new ArrayList<>(batch);
    Busy busy = null;
    while (!active.isEmpty()) {
      try {
        try {
          runOnce(active);
          if (storageFailing) {
            storageFailing = false;
            LOG.info("{}: writes succeed again", path);
          }
          break;
        } catch (SQLException e) {
          busy = busy != null ? busy : new Busy(busyTimeout, "commit", meters);
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
          if (!storageFailing) {
            storageFailing = true;
            LOG.warn("{}; writes fail (503) until it is mended", failure.getMessage());
          }
        } else {
          failure = e instanceof RuntimeException r ? r
              : new KvException("database error: " + e.getMessage(), e);
        }
        for (TxTask.Job<Tx, ?> p : active) {
          p.fail(failure);
        }
        break;
      }
    }
  }

  /** One task of a batch failed on its own; the transaction was rolled back. */
  private static final class TaskFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient TxTask.Job<Tx, ?> pending;
    final RuntimeException cause;

    TaskFailed(TxTask.Job<Tx, ?> pending, RuntimeException cause) {
      super(null, null, false, false);
      this.pending = pending;
      this.cause = cause;
    }
  }

  private void runOnce(List<TxTask.Job<Tx, ?>> batch) throws SQLException {
    tx.takeAfterCommit(); // drop what an attempt that failed half-way registered
    tx.beginImmediate();
    try {
      for (TxTask.Job<Tx, ?> p : batch) {
        try {
          p.run(tx);
          tx.flush(); // its writes fail as its own
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
