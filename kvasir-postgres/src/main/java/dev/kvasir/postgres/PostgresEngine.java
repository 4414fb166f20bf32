package dev.kvasir.postgres;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.MeterSink;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.Commit;
import dev.kvasir.engine.EngineTimer;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.KeyNotifier;
import dev.kvasir.engine.LeasedQueue;
import dev.kvasir.engine.NotifiedWatch;
import dev.kvasir.engine.OpenState;
import dev.kvasir.engine.Restore;
import dev.kvasir.engine.Versions;
import dev.kvasir.jdbc.JdbcRows;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.QueueDepth;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.spi.StoredEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scale-out engine: every Kvasir instance, on any machine, that opens the same PostgreSQL
 * database and schema sees one database with the embedded engine's semantics.
 *
 * <ul>
 *   <li>Writes: one writer thread per instance commits every pending write in one transaction
 *       ({@link Writer}). The transaction first locks the single {@code data_version} row, so
 *       commits of all instances are ordered and versionstamps follow that order; checks,
 *       mutations and the new version are one transaction, all-or-nothing.
 *   <li>Reads: pooled connections, one statement (one snapshot) per read ({@link Reads});
 *       expired rows are never returned and a timer deletes them.
 *   <li>Watch: commits {@code NOTIFY} the hashes of the keys they wrote; each instance listens
 *       ({@link ChangeFeed}) and re-reads after a reconnection.
 *   <li>Queues: {@code FOR UPDATE SKIP LOCKED} with leases ({@link PostgresQueue}).
 * </ul>
 *
 * Thread-safe. Entry point: {@link #open(PostgresConfig)}, or {@code Kv.open("postgresql://…")}.
 */
public final class PostgresEngine implements KvEngine {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresEngine.class);
  /** Commit-log rows outlive any writer still settling a broken commit. */
  private final long commitLogRetentionMs;

  private final PostgresConfig config;
  private final Database db;
  private final Sql sql;
  private final Writer writer;
  private final String instanceId = UUID.randomUUID().toString();
  private final KeyNotifier notifier = new KeyNotifier();
  private final EngineTimer timer;
  private final ChangeFeed feed;
  private final PostgresQueue queueStore;
  private final LeasedQueue queue;
  private final OpenState state = new OpenState();
  /** Runs asynchronous reads: as many threads as the pool has connections. */
  private final ExecutorService readPool;
  /** The role may not delete expired rows: sweeping is left to writing instances. */
  private volatile boolean sweepRefused;

  private PostgresEngine(PostgresConfig config, Database db, Sql sql) {
    this.config = config;
    this.db = db;
    this.sql = sql;
    this.commitLogRetentionMs = Math.max(120_000, 3 * config.retryTimeout().toMillis());
    this.writer = new Writer(db, sql, instanceId, config.retryTimeout().toMillis(),
        config.readOnly());
    this.timer = new EngineTimer("kvasir-postgres-timer " + config.schema(), this::sweep);
    this.feed = new ChangeFeed(db, sql, config.readOnly(), this::changedElsewhere,
        this::resync);
    this.queueStore = new PostgresQueue(this, db, writer, sql);
    this.queue = new LeasedQueue(queueStore, timer.executor(), config.queuePoll());
    this.readPool = Executors.newFixedThreadPool(config.poolSize(), r -> {
      Thread t = new Thread(r, "kvasir-postgres-read " + config.schema());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Connects, and creates or upgrades the schema.
   *
   * @throws KvUnavailableException if the server cannot be reached, or refuses work, for now
   *     (not up yet, starting, out of connections, or its name not resolvable yet)
   * @throws KvException if the server refuses us for good (a wrong password, no such
   *     database), or the schema is not Kvasir's or newer than this version; such a schema is
   *     left unchanged
   */
  public static PostgresEngine open(PostgresConfig config) {
    return open(config, System::currentTimeMillis);
  }

  /** As {@link #open(PostgresConfig)}, with {@code localClock} as this machine's clock. */
  static PostgresEngine open(PostgresConfig config, LongSupplier localClock) {
    Database db = Database.open(config, localClock);
    try (Connection c = db.connection()) {
      db.learnIdleSessionTimeout(c);
      db.clock().measure(c, config.describe());
      if (config.readOnly()) {
        Schema.check(c, config.schema(), config.describe());
      } else {
        Schema.migrate(c, config.schema(), config.describe());
      }
    } catch (SQLException e) {
      db.close();
      String message = "cannot open " + config.describe() + ": " + Database.explain(e);
      throw Database.isTransient(e) ? new KvUnavailableException(message, false, e)
          : new KvException(message, e);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
    PostgresEngine engine = new PostgresEngine(config, db, new Sql(config.schema()));
    // Rows that expired while no instance ran go at once.
    engine.timer.executor().execute(engine::sweep);
    return engine;
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    ensureOpen();
    return db.run("read", c -> {
      db.clock().measureIfStale(c, db.where());
      return Reads.read(c, sql, ranges, db.clock().nowMs());
    });
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    ensureOpen();
    Optional<Commit.Applied> applied = writer.commit(write);
    applied.ifPresent(this::committed);
    return applied.map(Commit.Applied::versionstamp);
  }

  /**
   * In one read-only repeatable-read transaction, so the rows and the version are one state;
   * rows are fetched in batches, not held in memory.
   */
  @Override
  public long dump(Consumer<StoredEntry> sink) {
    ensureOpen();
    return db.run("dump", c -> {
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      c.setReadOnly(true);
      try {
        long version = Reads.commitVersion(c, sql);
        try (PreparedStatement p = c.prepareStatement(sql.dumpLive)) {
          p.setFetchSize(1000);
          JdbcRows.dump(p, db.clock().nowMs(), sink);
        }
        c.commit();
        return version;
      } finally {
        c.rollback(); // nothing to undo; ends the transaction if the read failed
        c.setReadOnly(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        c.setAutoCommit(true);
      }
    });
  }

  @Override
  public long committedVersion() {
    ensureOpen();
    return db.run("read the version", c -> Reads.commitVersion(c, sql));
  }

  @Override
  public void load(Iterable<StoredEntry> entries) {
    ensureOpen();
    long earliest = writer.execute(tx -> {
      Restore.load(tx, entries);
      return tx.earliestExpiry();
    });
    sweepAtOrBefore(earliest);
  }

  /** On a thread of the read pool, one per pooled connection. */
  @Override
  public CompletableFuture<List<List<RawEntry>>> snapshotReadAsync(List<ReadRange> ranges,
      Consistency consistency) {
    ensureOpen();
    return CompletableFuture.supplyAsync(() -> snapshotRead(ranges, consistency), readPool);
  }

  @Override
  public boolean writesWithoutWaiting() {
    return true;
  }

  /** Queued for the next group commit; the future completes on the writer once committed. */
  @Override
  public CompletableFuture<Optional<Versionstamp>> atomicWriteAsync(AtomicWrite write) {
    ensureOpen();
    return writer.commitAsync(write).thenApply(applied -> {
      applied.ifPresent(this::committed);
      return applied.map(Commit.Applied::versionstamp);
    });
  }

  private void committed(Commit.Applied applied) {
    notifier.changed(applied.keys());
    if (applied.enqueued()) {
      queueStore.signal().raise();
    }
    if (applied.expiring()) {
      sweepAtOrBefore(applied.earliestExpiry());
    }
  }

  /** Has the sweep run at {@code serverMs}, a time by the database server's clock. */
  private void sweepAtOrBefore(long serverMs) {
    timer.sweepAtOrBefore(db.clock().toLocal(serverMs));
  }

  /** Keys this instance changed outside {@link #atomicWrite} (dead letters). */
  void changedLocally(List<RawKey> keys) {
    notifier.changed(keys);
  }

  /** A notification from another instance. */
  private void changedElsewhere(Notification n) {
    if (n.instance().equals(instanceId)) {
      return; // announced locally already
    }
    if (n.allKeys()) {
      notifier.changedAll();
    } else {
      notifier.changedWhere(n::mayHaveChanged);
    }
    if (n.enqueued()) {
      queueStore.signal().raise();
    }
    if (n.expiring()) {
      rescanExpiry();
    }
  }

  /** Notifications may have been missed: every watcher and listener looks again. */
  private void resync() {
    notifier.changedAll();
    queueStore.signal().raise();
    rescanExpiry();
  }

  private void rescanExpiry() {
    try {
      timer.executor().execute(() -> {
        try {
          sweepAtOrBefore(db.run("find the next expiry", c -> Reads.earliestExpiry(c, sql)));
        } catch (KvException e) {
          // closing or unreachable: the fallback sweep looks again
        }
      });
    } catch (RejectedExecutionException e) {
      // closed
    }
  }

  /**
   * Deletes expired rows (one version for the sweep) and old commit-log rows, and schedules the
   * next sweep.
   */
  private void sweep() {
    // Reads leave expired rows out; a read-only instance leaves deleting them to a writer.
    if (state.isClosed() || config.readOnly() || sweepRefused) {
      return;
    }
    timer.sweepStarted();
    long next = System.currentTimeMillis() + Expiry.SWEEP_AT_LEAST_EVERY_MS;
    try {
      // Clocks drift: the offset to the server's is measured again each time.
      db.run("read the server's clock", c -> {
        db.clock().measure(c, db.where());
        return null;
      });
      next = Math.min(next, db.clock().toLocal(writer.execute(tx -> {
        long now = db.clock().nowMs();
        PreparedStatement p = tx.prepare(sql.deleteExpired);
        p.setLong(1, now);
        List<RawKey> removed = new ArrayList<>();
        try (ResultSet r = p.executeQuery()) {
          while (r.next()) {
            removed.add(RawKey.wrap(r.getBytes(1)));
          }
        }
        PreparedStatement prune = tx.prepare(sql.pruneCommitLog);
        prune.setLong(1, now - commitLogRetentionMs);
        prune.executeUpdate();
        PreparedStatement pruneIds = tx.prepare(sql.pruneCommitIds);
        pruneIds.setLong(1, now - AtomicWrite.IDEMPOTENCY_RETENTION.toMillis());
        pruneIds.executeUpdate();
        if (!removed.isEmpty()) {
          tx.nextVersion(Versions.SWEEP_STEP);
          tx.changed(removed);
          tx.afterCommit(() -> notifier.changed(removed));
        }
        tx.afterCommit(() -> timer.sweepFinished(removed.size()));
        return tx.earliestExpiry();
      })));
    } catch (KvClosedException e) {
      return;
    } catch (KvException e) {
      if (Database.privilegeRefused(e)) {
        // Every later sweep would fail the same way, one warning each (docs/postgres.md §8).
        sweepRefused = true;
        LOG.warn("The role may not delete expired rows on {} ({}); reads leave them out, and a"
            + " writing instance deletes them. Open it with postgres.readOnly=true", db.where(),
            e.getMessage());
        return;
      }
      timer.sweepFailed(e); // unreachable for now: try again at the fallback time
    }
    // Other instances write expiring rows too; look again within a minute regardless.
    timer.sweepAtOrBefore(next);
  }

  /**
   * Reports to {@code sink} (docs/operations.md §5): group commits, sweeps, the shared queue as
   * this instance reads it, retries, reconnections and the connection pool.
   */
  @Override
  public void bindMeters(MeterSink sink) {
    ensureOpen();
    writer.bindMeters(sink);
    timer.bindMeters(sink);
    queue.bindMeters(sink);
    db.bindMeters(sink);
    feed.bindMeters(sink);
  }

  @Override
  public Optional<QueueDepth> queueDepth() {
    ensureOpen();
    return Optional.of(queue.depth());
  }

  @Override
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    ensureOpen();
    feed.start();
    return queue.dequeueNext(timeout);
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    ensureOpen();
    feed.start();
    // The notifier is this engine's own: closing the engine closes it, which ends every watch.
    return new NotifiedWatch(this, notifier, keys);
  }

  boolean isClosed() {
    return state.isClosed();
  }

  private void ensureOpen() {
    state.ensureOpen();
  }

  /** The configuration this engine was opened with. */
  public PostgresConfig config() {
    return config;
  }

  @Override
  public void close() {
    if (!state.close()) {
      return;
    }
    notifier.close();
    queueStore.signal().raise();
    feed.close();
    timer.stop();
    readPool.shutdown();
    writer.close();
    db.close();
  }
}
