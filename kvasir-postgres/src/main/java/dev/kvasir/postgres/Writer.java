package dev.kvasir.postgres;

import dev.kvasir.KvClosedException;
import dev.kvasir.KvException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The one thread of an instance that commits. It takes every task pending at that moment and
 * runs them in one transaction on its own connection (group commit: one lock of the commit
 * counter and one WAL flush for all of them). A task that fails leaves no trace while the others
 * commit: the transaction is rolled back and run again without it.
 *
 * <p>A lost connection or a transaction PostgreSQL aborted (serialization failure, deadlock)
 * before the commit was sent leaves nothing behind, so the batch runs again on a fresh
 * connection until {@code retryTimeout}. If the connection breaks while the commit itself is
 * under way, the outcome is unknown and the tasks fail with {@link
 * dev.kvasir.KvUnavailableException#maybeApplied()} set. Results and after-commit actions are
 * delivered only once the transaction committed, so tasks must be safe to run again.
 */
final class Writer implements AutoCloseable {
  /** Work done inside the writer's transaction. */
  interface Task<T> {
    T run(Tx tx) throws SQLException;
  }

  private static final int MAX_BATCH = 256;
  private static final Pending<Void> POISON = new Pending<>(tx -> null);

  private final Database db;
  private final Sql sql;
  private final String instanceId;
  private final long retryTimeoutNanos;
  private final LinkedBlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private Tx tx; // writer thread only
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

    void fail(RuntimeException e) {
      error = e;
      afterCommit = List.of();
    }

    void complete() {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        future.complete(result);
      }
    }
  }

  Writer(Database db, Sql sql, String instanceId, long retryTimeoutMs) {
    this.db = db;
    this.sql = sql;
    this.instanceId = instanceId;
    this.retryTimeoutNanos = retryTimeoutMs * 1_000_000;
    this.thread = new Thread(this::loop, "kvasir-postgres-writer " + sql.schema);
    thread.setDaemon(true);
    thread.start();
  }

  /** Runs the task in the next group commit and waits until it committed. */
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
    dropConnection();
  }

  private void runBatch(List<Pending<?>> batch) {
    List<Pending<?>> active = new ArrayList<>(batch);
    long deadline = System.nanoTime() + retryTimeoutNanos;
    for (int tries = 0; !active.isEmpty(); ) {
      try {
        runOnce(active);
        break;
      } catch (TaskFailed f) {
        f.pending.fail(f.cause);
        active.remove(f.pending);
      } catch (CommitUnknown u) {
        dropConnection();
        failAll(active, db.unavailable("commit", u.cause, true));
        break;
      } catch (SQLException e) {
        Database.Failure kind = Database.classify(e);
        if (kind == Database.Failure.CONNECTION) {
          dropConnection();
        }
        if (kind == Database.Failure.OTHER) {
          failAll(active, new KvException("commit failed on " + db.where() + ": "
              + e.getMessage(), e));
          break;
        }
        if (System.nanoTime() >= deadline) {
          failAll(active, db.unavailable("commit", e, false));
          break;
        }
        Database.backoff(tries++);
      } catch (RuntimeException e) {
        failAll(active, e);
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

  private static void failAll(List<Pending<?>> active, RuntimeException e) {
    for (Pending<?> p : active) {
      p.fail(e);
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

  /** The connection broke during commit: the transaction may or may not have committed. */
  private static final class CommitUnknown extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final SQLException cause;

    CommitUnknown(SQLException cause) {
      super(null, null, false, false);
      this.cause = cause;
    }
  }

  private void runOnce(List<Pending<?>> batch) throws SQLException {
    Tx t = connect();
    try {
      t.begin();
      for (Pending<?> p : batch) {
        p.error = null;
        try {
          p.run(t);
        } catch (SQLException e) {
          if (Database.classify(e) != Database.Failure.OTHER) {
            throw e; // the whole batch retries
          }
          throw new TaskFailed(p, new KvException("commit failed on " + db.where() + ": "
              + e.getMessage(), e));
        } catch (RuntimeException e) {
          throw new TaskFailed(p, e);
        }
        p.afterCommit = t.takeAfterCommit();
      }
      t.finish(instanceId);
    } catch (SQLException | RuntimeException e) {
      rollback(t);
      throw e;
    }
    try {
      t.connection.commit();
    } catch (SQLException e) {
      if (Database.classify(e) == Database.Failure.CONNECTION) {
        throw new CommitUnknown(e);
      }
      rollback(t);
      throw e; // PostgreSQL refused the commit (e.g. a serialization failure): nothing applied
    }
  }

  private Tx connect() throws SQLException {
    if (tx == null) {
      Connection c = db.connection();
      try {
        c.setAutoCommit(false);
      } catch (SQLException e) {
        c.close();
        throw e;
      }
      tx = new Tx(c, sql);
    }
    return tx;
  }

  private static void rollback(Tx t) {
    try {
      t.connection.rollback();
    } catch (SQLException ignored) {
      // the connection is gone; the server rolled back
    }
  }

  private void dropConnection() {
    if (tx != null) {
      tx.close();
      tx = null;
    }
  }

  /** Finishes the tasks already queued, then stops the thread and returns its connection. */
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
