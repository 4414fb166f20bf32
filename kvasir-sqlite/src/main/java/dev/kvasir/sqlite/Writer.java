package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.engine.CommitThread;
import dev.kvasir.engine.OpenedFile;
import dev.kvasir.jdbc.TxTask;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
  /** The file opened, checked before each batch; empty in memory and when read-only. */
  private final Optional<OpenedFile> file;
  private final Damage damage;
  /** Whether the last batch failed for its storage (a full disk): logged once, not per batch. */
  private boolean storageFailing;
  /** Whether the file's path was found deleted or replaced: logged once. */
  private boolean fileGone;
  /** Whether the last failed attempt's transaction was rolled back; used by one batch at a time. */
  private boolean rolledBack = true;
  /** Whether the last failed attempt failed in its COMMIT statement; likewise. */
  private boolean failedCommitting;

  Writer(Tx tx, Duration busyTimeout, String name, Optional<OpenedFile> file, Damage damage,
      SqliteMeters meters) {
    super("kvasir-sqlite-writer " + name, MAX_BATCH);
    this.tx = tx;
    this.busyTimeout = busyTimeout;
    this.path = name;
    this.file = file;
    this.damage = damage;
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
    fileChange().ifPresent(this::emptyLostFilesLog);
    tx.close();
  }

  /**
   * Empties the log of a file that lost its path. SQLite does not fold the log of a moved file
   * into it at close, and leaves the log where the file was: a file put at that path later, a
   * restored copy say, would have the lost file's commits replayed into it when opened
   * (docs/sqlite.md §10). Copied into the lost file first, they stay with that file.
   */
  private void emptyLostFilesLog(String change) {
    try {
      if (!tx.emptyLog()) {
        LOG.warn("{}; another process reads its write-ahead log, which stays beside the path:"
            + " remove {}-wal before opening a file put there", change, path);
      }
    } catch (SQLException e) {
      LOG.warn("{}; its write-ahead log could not be emptied ({}): remove {}-wal before"
          + " opening a file put there", change, e.getMessage(), path);
    }
  }

  @Override
  protected void runBatch(List<TxTask.Job<Tx, ?>> batch) {
    Optional<KvUnavailableException> gone = fileGone();
    if (gone.isPresent()) {
      batch.forEach(p -> p.fail(gone.get()));
      return;
    }
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
          failure = StorageFault.unavailable(path, sql,
              !rolledBack || (failedCommitting && StorageFault.mayLeaveCommitInLog(sql)));
          if (!storageFailing) {
            storageFailing = true;
            // Once: the failures themselves reach their callers. The engine has no HTTP status
            // to name (it said "503", which meant nothing to a command's user).
            LOG.warn("{} Later commits fail as well until then.", failure.getMessage());
          }
        } else {
          failure = e instanceof RuntimeException r ? r : databaseError((SQLException) e);
        }
        for (TxTask.Job<Tx, ?> p : active) {
          p.fail(failure);
        }
        break;
      }
    }
  }

  private Optional<String> fileChange() {
    return file.flatMap(OpenedFile::change);
  }

  /**
   * Why no commit may run: the file's path was deleted or names another file, so commits would
   * go into a file the path no longer names, and be lost with it if it was deleted
   * (docs/sqlite.md §10).
   */
  private Optional<KvUnavailableException> fileGone() {
    Optional<String> change = fileChange();
    if (change.isEmpty()) {
      return Optional.empty();
    }
    KvUnavailableException refused = OpenedFile.commitRefused(change.get());
    if (!fileGone) {
      fileGone = true;
      LOG.warn("{} Writes fail (503) until then.", refused.getMessage());
    }
    return Optional.of(refused);
  }

  private KvException databaseError(SQLException e) {
    return damage.of(e).orElseGet(() -> new KvException("database error: " + e.getMessage(), e));
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
    failedCommitting = false;
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
          throw new TaskFailed(p, databaseError(e));
        } catch (RuntimeException e) {
          throw new TaskFailed(p, e);
        }
        p.afterCommit(tx.takeAfterCommit());
      }
      tx.finish();
      failedCommitting = true; // read only if the commit fails; each attempt starts at false
      tx.commit();
    } catch (SQLException | RuntimeException e) {
      rolledBack = tx.abandon();
      throw e;
    }
  }
}
