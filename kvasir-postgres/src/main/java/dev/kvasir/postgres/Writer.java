package dev.kvasir.postgres;

import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.Arithmetic;
import dev.kvasir.engine.Commit;
import dev.kvasir.engine.CommitThread;
import dev.kvasir.engine.Versions;
import dev.kvasir.jdbc.TxTask;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;

/**
 * The one thread of an instance that commits. It takes every write pending at that moment and
 * commits them in one transaction on its own connection (group commit: one lock of the commit
 * counter and one WAL flush for all of them). A batch goes as one pipelined query, one round
 * trip ({@link Pipeline}), unless a write in it needs reads on the client first (an idempotency
 * key, a sum of JS numbers); then it runs statement by statement. A write that fails (a check,
 * a sum on a string) leaves no trace while the others commit: the transaction is rolled back
 * and run again without it.
 *
 * <p>Failures: a lost connection or a transaction PostgreSQL aborted (serialization failure,
 * deadlock) before the commit could have happened runs the batch again on a fresh connection,
 * until {@code retryTimeout}. If the connection breaks while the commit may be under way, the
 * writer ends the old server process and looks for the batch's {@code commit_log} row: found,
 * the writes succeeded; absent, they run again. Only if the server stays unreachable does a
 * write fail with {@link dev.kvasir.base.KvUnavailableException#maybeApplied()} set.
 */
final class Writer extends CommitThread<Writer.Pending<?>> {
  /** Work done inside an interactive transaction; run again from the start on retry. */
  interface Task<T> extends TxTask<Tx, T> {}

  private static final int MAX_BATCH = 256;

  private final Database db;
  private final Sql sql;
  private final String instanceId;
  private final long retryTimeoutNanos;
  private final boolean readOnly;
  private final CommitIds commitIds = new CommitIds();
  private Tx tx; // writer thread only
  /** When {@link #tx} was last handed out. Writer thread only. */
  private long lastUsedNanos;
  private Tx.Backend orphan; // writer thread only

  /** A queued task; {@code write} is set for atomic writes, which may be pipelined. */
  static final class Pending<T> extends TxTask.Job<Tx, T> {
    final AtomicWrite write;

    Pending(Task<T> task, AtomicWrite write) {
      super(task);
      this.write = write;
    }
  }

  Writer(Database db, Sql sql, String instanceId, long retryTimeoutMs, boolean readOnly) {
    super("kvasir-postgres-writer " + sql.schema, MAX_BATCH);
    this.db = db;
    this.sql = sql;
    this.instanceId = instanceId;
    this.retryTimeoutNanos = retryTimeoutMs * 1_000_000;
    this.readOnly = readOnly;
    start();
  }

  /** Runs the task in the next group commit and waits until it committed. */
  <T> T execute(Task<T> task) {
    refuseIfReadOnly();
    return submit(new Pending<>(task, null));
  }

  /** Commits an atomic write in the next group commit; empty if a check failed. */
  Optional<Commit.Applied> commit(AtomicWrite write) {
    refuseIfReadOnly();
    return submit(commitJob(write));
  }

  /** As {@link #commit}, without waiting: the future completes once it committed. */
  CompletableFuture<Optional<Commit.Applied>> commitAsync(AtomicWrite write) {
    try {
      refuseIfReadOnly();
    } catch (KvException e) {
      return CompletableFuture.failedFuture(e);
    }
    return submitAsync(commitJob(write));
  }

  private void refuseIfReadOnly() {
    if (readOnly) {
      throw new KvException(db.where() + " is open for reading only (postgres.readOnly)");
    }
  }

  private Pending<Optional<Commit.Applied>> commitJob(AtomicWrite write) {
    return new Pending<>(tx -> Commit.apply(tx, write, db.clock().nowMs()), write);
  }

  @Override
  protected void stopped() {
    dropConnection();
  }

  @Override
  protected void runBatch(List<Pending<?>> batch) {
    List<Pending<?>> active = new ArrayList<>(batch);
    boolean pipelined = true;
    for (Pending<?> p : active) {
      if (p.write == null || !Pipeline.accepts(p.write)) {
        pipelined = false;
        break;
      }
    }
    long deadline = System.nanoTime() + retryTimeoutNanos;
    for (int tries = 0; !active.isEmpty(); ) {
      try {
        if (pipelined) {
          runPipelined(active);
        } else {
          runInteractive(active);
        }
        break;
      } catch (TaskFailed f) {
        active.remove(f.pending);
      } catch (OutcomeUnknown u) {
        dropConnection(); // find() ends its server process
        CommitLog.Outcome outcome = CommitLog.find(db, sql, u.commitId, u.backend, deadline);
        if (outcome.applied()) {
          u.onApplied.accept(outcome.version());
          break;
        }
        if (!outcome.known()) {
          failAll(active, db.unavailable("commit", u.cause, true));
          break;
        }
        db.retried("commit", Database.Failure.CONNECTION, u.cause, tries);
        if (!Database.pause(tries++)) { // not applied: run it again, unless interrupted
          failAll(active, interruptedBeforeRetry(u.cause));
          break;
        }
      } catch (SQLException e) {
        Database.Failure kind = Database.classify(e);
        if (kind == Database.Failure.CONNECTION) {
          abandonConnection();
        } else if (kind == Database.Failure.REFUSED) {
          evictConnection();
        }
        if (kind == Database.Failure.OTHER) {
          if (pipelined) {
            pipelined = false; // find the write at fault by running them one by one
            continue;
          }
          failAll(active, new KvException("commit failed on " + db.where() + ": "
              + Database.explain(e), e));
          break;
        }
        if (System.nanoTime() >= deadline) {
          failAll(active, db.unavailable("commit", e, false));
          break;
        }
        db.retried("commit", kind, e, tries);
        if (!Database.pause(tries++)) {
          failAll(active, interruptedBeforeRetry(e));
          break;
        }
      } catch (RuntimeException e) {
        failAll(active, e);
        break;
      }
    }
  }

  /**
   * For commits a failure did not apply, whose thread was interrupted before running them again
   * (a caller committing on its own thread): runBatch must not throw (docs/atomic.md §9).
   */
  private KvException interruptedBeforeRetry(SQLException cause) {
    KvException e = new KvException("interrupted before running the commit again on "
        + db.where() + " (" + Database.explain(cause) + "): nothing was applied",
        new InterruptedException());
    e.addSuppressed(cause);
    return e;
  }

  private static void failAll(List<Pending<?>> active, RuntimeException e) {
    for (Pending<?> p : active) {
      p.fail(e);
    }
  }

  /** One write of a batch is done on its own (failed, or its check failed); rolled back. */
  private static final class TaskFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Pending<?> pending;

    TaskFailed(Pending<?> pending) {
      super(null, null, false, false);
      this.pending = pending;
    }
  }

  /** The connection broke while the commit may have happened. */
  private static final class OutcomeUnknown extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final UUID commitId;
    final transient Tx.Backend backend;
    final SQLException cause;
    final transient LongConsumer onApplied;

    OutcomeUnknown(UUID commitId, Tx.Backend backend, SQLException cause,
        LongConsumer onApplied) {
      super(null, null, false, false);
      this.commitId = commitId;
      this.backend = backend;
      this.cause = cause;
      this.onApplied = onApplied;
    }
  }

  @SuppressWarnings("unchecked")
  private void runPipelined(List<Pending<?>> batch) throws SQLException {
    Tx t = connect();
    t.autoCommit(true);
    // The keys for the notification: versionstamped ones by their prefix, as their versions
    // are not known yet.
    List<RawKey> changed = new ArrayList<>();
    List<RawKey> stamped = new ArrayList<>();
    long[] expiries = new long[batch.size()]; // each write's earliest, for the results
    boolean enqueued = false;
    boolean expiring = false;
    for (int j = 0; j < batch.size(); j++) {
      AtomicWrite w = batch.get(j).write;
      for (Mutation m : w.mutations()) {
        (m.kind() == Mutation.Kind.SET_VERSIONSTAMPED_KEY ? stamped : changed).add(m.key());
      }
      expiries[j] = earliestExpiry(w);
      enqueued |= !w.enqueues().isEmpty();
      expiring |= expiries[j] != Long.MAX_VALUE;
    }
    UUID commitId = commitIds.next();
    Pipeline pipeline = new Pipeline(sql, commitId, db.clock().nowMs(),
        changed.isEmpty() && stamped.isEmpty() && !enqueued ? null
            : Notification.payload(instanceId, enqueued, expiring, changed, stamped));
    for (int j = 0; j < batch.size(); j++) {
      pipeline.add(j, batch.get(j).write, Versions.commitStep(), j == batch.size() - 1);
    }
    PreparedStatement p = t.preparePipeline(pipeline.text());
    long[] versions;
    try {
      pipeline.bind(p);
      boolean firstIsResultSet;
      try {
        firstIsResultSet = p.execute();
      } catch (SQLException e) {
        if ("KV001".equals(e.getSQLState())) {
          Pending<Optional<Commit.Applied>> failed =
              (Pending<Optional<Commit.Applied>>) batch.get(Pipeline.failedTask(e));
          failed.succeed(Optional.empty());
          throw new TaskFailed(failed);
        }
        if ("KV002".equals(e.getSQLState())) {
          Pipeline.NotU64 notU64 = Pipeline.notU64(e);
          Pending<?> failed = batch.get(notU64.task());
          failed.fail(Arithmetic.storedNotU64(notU64.op()));
          throw new TaskFailed(failed);
        }
        if (Database.classify(e) == Database.Failure.CONNECTION) {
          throw new OutcomeUnknown(commitId, t.backend, e,
              last -> applied(batch, pipeline.versionsEndingAt(last), expiries));
        }
        throw e;
      }
      versions = pipeline.versions(p, firstIsResultSet);
    } finally {
      forgetParameters(p);
    }
    applied(batch, versions, expiries);
  }

  /** A kept statement must not hold on to a batch's keys and values until its next use. */
  private static void forgetParameters(PreparedStatement p) {
    try {
      p.clearParameters();
    } catch (SQLException ignored) {
      // closed with its connection: nothing is kept
    }
  }

  @SuppressWarnings("unchecked")
  private static void applied(List<Pending<?>> batch, long[] versions, long[] expiries) {
    for (int j = 0; j < batch.size(); j++) {
      Pending<Optional<Commit.Applied>> p = (Pending<Optional<Commit.Applied>>) batch.get(j);
      p.succeed(Optional.of(new Commit.Applied(Versionstamp.ofVersion(versions[j]),
          Pipeline.keys(p.write, versions[j]), expiries[j], !p.write.enqueues().isEmpty())));
    }
  }

  private static long earliestExpiry(AtomicWrite w) {
    long earliest = Long.MAX_VALUE;
    for (Mutation m : w.mutations()) {
      if (m.expireAt() != null) {
        earliest = Math.min(earliest, m.expireAt().toEpochMilli());
      }
    }
    return earliest;
  }

  private void runInteractive(List<Pending<?>> batch) throws SQLException {
    Tx t = connect();
    t.autoCommit(false);
    UUID commitId = commitIds.next();
    try {
      t.begin();
      for (Pending<?> p : batch) {
        try {
          p.run(t);
          t.flush(); // its writes fail as its own
        } catch (SQLException e) {
          if (Database.classify(e) != Database.Failure.OTHER) {
            throw e; // the whole batch retries
          }
          p.fail(new KvException("commit failed on " + db.where() + ": " + Database.explain(e),
              e));
          throw new TaskFailed(p);
        } catch (RuntimeException e) {
          p.fail(e);
          throw new TaskFailed(p);
        }
        p.afterCommit(t.takeAfterCommit());
      }
      t.finish(instanceId, commitId, db.clock().nowMs());
    } catch (SQLException | RuntimeException e) {
      rollback(t);
      throw e;
    }
    try {
      t.connection.commit();
    } catch (SQLException e) {
      if (Database.classify(e) == Database.Failure.CONNECTION) {
        throw new OutcomeUnknown(commitId, t.backend, e, last -> { });
      }
      rollback(t);
      throw e; // PostgreSQL refused the commit (e.g. a serialization failure): nothing applied
    }
  }

  private Tx connect() throws SQLException {
    long idleLimitMs = db.idleSessionTimeoutMs() / 2;
    long now = System.nanoTime();
    if (tx != null && idleLimitMs > 0 && now - lastUsedNanos > idleLimitMs * 1_000_000) {
      // The server may have ended the session for idleness: take a fresh one rather than
      // meet the end at the first statement (docs/postgres.md §7). Evicted, so that the pool
      // does not hand the same session straight back.
      Connection stale = tx.connection;
      dropConnection();
      db.evict(stale);
    }
    lastUsedNanos = now;
    if (tx == null) {
      var c = db.connection();
      try {
        if (orphan != null) {
          CommitLog.terminate(c, orphan);
          orphan = null;
        }
        tx = new Tx(c, sql);
      } catch (SQLException e) {
        c.close();
        throw e;
      }
    }
    return tx;
  }

  /**
   * Drops a connection that broke. Its server process may live on in the middle of a
   * transaction holding the commit-order lock (the server has not noticed yet); the next
   * connection ends it, or every instance would wait.
   */
  private void abandonConnection() {
    if (tx != null) {
      orphan = tx.backend;
    }
    dropConnection();
  }

  /** The connection's server refuses the work: roll back, and never use the session again. */
  private void evictConnection() {
    if (tx != null) {
      rollback(tx);
      Connection c = tx.connection;
      // Closed first, then evicted: HikariCP closes an evicted connection at once, and closing
      // the proxy of one whose auto-commit we changed then fails inside the pool.
      dropConnection();
      db.evict(c);
    }
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
      Tx dropped = tx;
      tx = null; // whatever closing throws, the next batch opens a new connection
      dropped.close();
    }
  }
}
