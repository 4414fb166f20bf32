package dev.kvasir.sqlite;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.MeterSink;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.Commit;
import dev.kvasir.engine.EngineTimer;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.LeasedQueue;
import dev.kvasir.engine.NotifiedWatch;
import dev.kvasir.engine.OpenState;
import dev.kvasir.engine.OpenedFile;
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
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The embedded engine: a SQLite file in denokv's format (docs/sqlite.md), so Deno and
 * Kvasir open each other's files.
 *
 * <ul>
 *   <li>Writes: one writer thread applies every commit pending at a time in one transaction
 *       (group commit), each with its own version and checks ({@link Writer}). WAL, {@code
 *       synchronous=FULL} by default: a commit returns once it is durable.
 *   <li>Reads: a pool of read-only WAL connections in parallel ({@link Readers}); expired rows
 *       are never returned, and a timer deletes them as they expire.
 *   <li>Queues: denokv's {@code queue}/{@code queue_running} tables ({@link SqliteQueue}).
 *   <li>Watch: in-process notifications shared by every engine on the same file, and a cheap
 *       poll for commits of other processes ({@link ForeignCommits}).
 * </ul>
 *
 * Thread-safe. Entry point: {@link #open(SqliteConfig)}.
 */
public final class SqliteEngine implements KvEngine {
  private static final Logger LOG = LoggerFactory.getLogger(SqliteEngine.class);

  private final SqliteConfig config;
  private final SqliteMeters meters;
  /** The file opened, to tell when its path was deleted or given to another; empty in memory. */
  private final Optional<OpenedFile> opened;
  private final Damage damage;
  /** A read-only engine's: the log and index it made, removed at close. */
  private final Optional<ReadOnlyLeftovers> leftovers;
  private final Writer writer;
  private final Readers readers;
  private final Shared shared;
  private final LeasedQueue queue;
  private final EngineTimer timer;
  private final Set<NotifiedWatch> watches = ConcurrentHashMap.newKeySet();
  private final OpenState state = new OpenState();
  private final Runnable rescanExpiry = this::rescanExpiry;
  /** Lets idle readers go of snapshots that a commit of this JVM made stale; null in memory. */
  private final Runnable readersSeeCommit;
  /** Runs asynchronous reads: as many threads as reader connections, made when first used. */
  private final ExecutorService readPool;

  private SqliteEngine(SqliteConfig config, Writer writer, List<Tx> readerConnections,
      WalIndexHeader header, Shared shared, Optional<OpenedFile> opened, Damage damage,
      SqliteMeters meters, Optional<ReadOnlyLeftovers> leftovers) {
    this.config = config;
    this.leftovers = leftovers;
    this.opened = opened;
    this.damage = damage;
    this.meters = meters;
    this.writer = writer;
    this.shared = shared;
    this.timer = new EngineTimer("kvasir-sqlite-timer " + config.path(), this::sweep);
    this.readers = readerConnections.isEmpty() ? null : new Readers(readerConnections, header,
        config.busyTimeout(), meters, timer.executor(), this::fileChange, damage);
    this.readersSeeCommit = readers == null ? null : readers::committed;
    if (readers != null) {
      shared.onCommit(readersSeeCommit);
    }
    this.queue = new LeasedQueue(new SqliteQueue(this, writer, shared), timer.executor(),
        config.queuePoll());
    this.readPool = readers == null ? null
        : Executors.newFixedThreadPool(config.readers(), daemon("kvasir-sqlite-read "
            + config.path()));
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Opens or creates the database, upgrading an older Deno KV schema.
   *
   * @throws KvException if the file is not a Deno KV database, has a newer schema, or cannot be
   *     opened; such a file is left unchanged
   */
  public static SqliteEngine open(SqliteConfig config) {
    NativeLibrary.requireUnpackable();
    Connection first = null;
    try {
      boolean readOnly = config.readOnly() && !config.inMemory();
      if (!config.inMemory()) {
        FileChecks.refuseUnusable(Path.of(config.path()), readOnly);
      }
      String url = config.inMemory() ? "jdbc:sqlite::memory:"
          : readOnly && FileChecks.onReadOnlyStorage(config.path())
          ? FileChecks.immutable(config.path())
          : "jdbc:sqlite:" + config.path();
      Optional<ReadOnlyLeftovers> leftovers = readOnly
          ? Optional.of(ReadOnlyLeftovers.before(Path.of(config.path()))) : Optional.empty();
      first = connection(config, url, readOnly);
      Optional<OpenedFile> opened = config.inMemory() ? Optional.empty()
          : OpenedFile.at(Path.of(config.path()));
      if (readOnly) {
        Schema.verifyCurrent(first, config.path());
      } else {
        prepare(first, config);
      }
      List<Tx> pool = new ArrayList<>();
      if (!config.inMemory()) {
        for (int i = 0; i < config.readers(); i++) {
          pool.add(new Tx(connection(config, url, true), null));
        }
      }
      Shared shared = Shared.forPath(canonical(config));
      SqliteMeters meters = new SqliteMeters();
      // A read-only engine has no log of its own to empty when its file moves (Writer).
      Damage damage = new Damage(config.path());
      Writer writer = new Writer(new Tx(first, shared), config.busyTimeout(), config.path(),
          readOnly ? Optional.empty() : opened, damage, meters);
      SqliteEngine engine = new SqliteEngine(config, writer, pool, walIndexHeader(first, shared),
          shared, opened, damage, meters, leftovers);
      engine.start();
      LOG.info("Opened {}{}", config.inMemory() ? "an in-memory database" : config.path(),
          config.readOnly() ? " read-only" : ", synchronous=" + config.synchronous());
      if (!config.inMemory()) {
        NetworkFilesystem.of(Path.of(config.path())).ifPresent(type -> LOG.warn("{} is on a"
            + " network filesystem ({}), where SQLite's locks and shared memory do not hold"
            + " between machines: open it from one machine only, or use PostgreSQL to share a"
            + " database (docs/sqlite.md §1)", config.path(), type));
      }
      return engine;
    } catch (SQLException e) {
      close(first);
      throw new KvException("cannot open " + config.path() + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      close(first);
      throw e;
    }
  }

  /**
   * Checks the file, switches it to WAL and migrates it. Another process creating or migrating
   * the same file holds its lock meanwhile; this waits for it like a commit would.
   */
  private static void prepare(Connection first, SqliteConfig config) throws SQLException {
    Busy busy = null;
    while (true) {
      try {
        Schema.verify(first, config.path());
        if (!config.inMemory()) {
          try (var s = first.createStatement()) {
            s.execute("pragma journal_mode = wal");
            s.execute("pragma synchronous = " + config.synchronous());
          }
        }
        Schema.migrate(first, config.path());
        return;
      } catch (SQLException e) {
        if (busy == null) {
          busy = new Busy(config.busyTimeout(), "cannot open " + config.path(),
              new SqliteMeters());
        }
        busy.backOff(e);
      }
    }
  }

  /**
   * The WAL index's header, through which readers learn that nothing was committed; null for a
   * file in memory or not in WAL mode (opened read-only), which has none. SQLite names the
   * shared memory after the database's full path as it resolved it, which {@code pragma
   * database_list} tells.
   */
  private static WalIndexHeader walIndexHeader(Connection first, Shared shared)
      throws SQLException {
    try (var s = first.createStatement()) {
      try (var r = s.executeQuery("pragma journal_mode")) {
        if (!r.next() || !"wal".equalsIgnoreCase(r.getString(1))) {
          return null;
        }
      }
      try (var r = s.executeQuery("pragma database_list")) {
        while (r.next()) {
          if ("main".equals(r.getString("name")) && !r.getString("file").isEmpty()) {
            return shared.walIndexHeader(r.getString("file") + "-shm");
          }
        }
      }
    }
    return null;
  }

  private static Connection connection(SqliteConfig config, String url, boolean readOnly)
      throws SQLException {
    SQLiteConfig c = new SQLiteConfig();
    // SQLite's own busy handler only bridges short waits; Busy retries up to busyTimeout.
    c.setBusyTimeout((int) Math.min(config.busyTimeout().toMillis(), 100));
    // Otherwise the driver prepares and runs "select last_insert_rowid()" after every insert.
    c.setGetGeneratedKeys(false);
    // The driver lets one thread at a time into a connection already; SQLite's own mutex on
    // each call would only repeat that (docs/sqlite.md §8).
    c.setOpenMode(SQLiteOpenMode.NOMUTEX);
    if (readOnly) {
      c.setOpenMode(SQLiteOpenMode.READONLY);
      c.setReadOnly(true);
    }
    return c.createConnection(url);
  }

  private static String canonical(SqliteConfig config) {
    if (config.inMemory()) {
      return null;
    }
    try {
      return Path.of(config.path()).toRealPath().toString();
    } catch (IOException e) {
      return Path.of(config.path()).toAbsolutePath().normalize().toString();
    }
  }

  private static void close(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // already failing
      }
    }
  }

  private void start() {
    if (config.readOnly()) {
      return; // no sweeps and no queue: both write
    }
    // Like Deno, sweep at open: rows that expired while the file was closed go at once.
    timer.executor().execute(this::sweep);
    shared.onForeignCommit(rescanExpiry);
    queue.recoverExpiredLeases();
  }

  /** Another process may have written rows that expire before our next sweep. */
  private void rescanExpiry() {
    try {
      timer.executor().execute(this::scheduleSweepForEarliestExpiry);
    } catch (RejectedExecutionException e) {
      // closed
    }
  }

  private void scheduleSweepForEarliestExpiry() {
    try {
      timer.sweepAtOrBefore(read(Tx::earliestExpiry));
    } catch (KvException e) {
      // closing, or the file is busy: the fallback sweep looks again
    }
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    ensureOpen();
    Writer.Task<List<List<RawEntry>>> work =
        tx -> Readers.read(tx, ranges, System.currentTimeMillis());
    if (readers != null && ranges.size() == 1) {
      return readers.run(work, false); // one statement sees one snapshot by itself
    }
    return read(work);
  }

  /**
   * On a thread of the read pool, one per reader connection, so reads wait for no thread but
   * for a connection, as blocking ones do; in memory, on the writer.
   */
  @Override
  public CompletableFuture<List<List<RawEntry>>> snapshotReadAsync(List<ReadRange> ranges,
      Consistency consistency) {
    ensureOpen();
    if (readers == null) {
      return writer.executeAsync(tx -> Readers.read(tx, ranges, System.currentTimeMillis()));
    }
    return CompletableFuture.supplyAsync(() -> snapshotRead(ranges, consistency), readPool);
  }

  /**
   * On a file, each read takes a reader connection of its own, and WAL readers wait for no
   * commit; in memory, reads queue on the writer behind the commits.
   */
  @Override
  public boolean readsWithoutWaiting() {
    return readers != null;
  }

  @Override
  public boolean writesWithoutWaiting() {
    return true;
  }

  /** Queued for the next group commit; the future completes on the writer once durable. */
  @Override
  public CompletableFuture<Optional<Versionstamp>> atomicWriteAsync(AtomicWrite write) {
    ensureOpen();
    ensureWritable();
    return writer.executeAsync(tx -> {
      Optional<Commit.Applied> a = Commit.apply(tx, write, System.currentTimeMillis());
      a.ifPresent(done -> tx.afterCommit(() -> committed(done)));
      return a;
    }).thenApply(applied -> applied.map(Commit.Applied::versionstamp));
  }

  @Override
  public long dump(Consumer<StoredEntry> sink) {
    ensureOpen();
    return read(tx -> {
      JdbcRows.dump(tx.prepare(Sql.DUMP_LIVE), System.currentTimeMillis(), sink);
      return commitVersion(tx);
    });
  }

  /**
   * That the file's path was deleted or names another file now (docs/sqlite.md §10), or that
   * SQLite found its pages damaged (§11).
   */
  @Override
  public Optional<String> storageProblem() {
    ensureOpen();
    return damage.found().or(this::fileChange);
  }

  private Optional<String> fileChange() {
    return opened.flatMap(OpenedFile::change);
  }

  @Override
  public long committedVersion() {
    ensureOpen();
    return read(SqliteEngine::commitVersion);
  }

  private static long commitVersion(Tx tx) throws SQLException {
    try (var r = tx.prepare(Sql.COMMIT_VERSION).executeQuery()) {
      return r.next() ? r.getLong(1) : 0;
    }
  }

  @Override
  public void load(Iterable<StoredEntry> entries) {
    ensureOpen();
    ensureWritable();
    long earliest = writer.execute(tx -> {
      Restore.load(tx, entries);
      return tx.earliestExpiry();
    });
    timer.sweepAtOrBefore(earliest);
  }

  /** Runs a read in one transaction: on a reader connection, or the writer's in memory. */
  <T> T read(Writer.Task<T> work) {
    return readers == null ? writer.execute(work) : readers.run(work);
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    ensureOpen();
    ensureWritable();
    Optional<Commit.Applied> applied = writer.execute(tx -> {
      Optional<Commit.Applied> a = Commit.apply(tx, write, System.currentTimeMillis());
      a.ifPresent(done -> tx.afterCommit(() -> committed(done)));
      return a;
    });
    return applied.map(Commit.Applied::versionstamp);
  }

  private void committed(Commit.Applied applied) {
    shared.notifier.changed(applied.keys());
    if (applied.enqueued()) {
      shared.queue.raise();
    }
    if (applied.expiring()) {
      timer.sweepAtOrBefore(applied.earliestExpiry());
    }
  }

  /** Deletes expired rows (one version bump per sweep, as Deno) and schedules the next sweep. */
  private void sweep() {
    if (state.isClosed()) {
      return;
    }
    timer.sweepStarted();
    try {
      long next = writer.execute(tx -> {
        long now = System.currentTimeMillis();
        List<RawKey> removed = new ArrayList<>();
        var p = tx.prepare(Sql.DELETE_EXPIRED);
        p.setLong(1, now);
        try (var r = p.executeQuery()) {
          while (r.next()) {
            removed.add(RawKey.of(r.getBytes(1)));
          }
        }
        if (!removed.isEmpty()) {
          tx.nextVersion(Versions.SWEEP_STEP);
          tx.afterCommit(() -> shared.notifier.changed(removed));
        }
        pruneCommitIds(tx, now);
        tx.afterCommit(() -> timer.sweepFinished(removed.size()));
        return tx.earliestExpiry();
      });
      // Another process may write expiring rows we never hear of: look again within a minute.
      timer.sweepAtOrBefore(
          Math.min(next, System.currentTimeMillis() + Expiry.SWEEP_AT_LEAST_EVERY_MS));
    } catch (KvClosedException e) {
      // closing
    } catch (KvException e) {
      // A full disk or a lock held too long: try again later rather than never.
      timer.sweepFailed(e);
      timer.sweepAtOrBefore(System.currentTimeMillis() + Expiry.SWEEP_AT_LEAST_EVERY_MS);
    }
  }

  /** Forgets idempotency keys older than the retention, if any write ever recorded one. */
  private static void pruneCommitIds(Tx tx, long now) throws SQLException {
    try (var r = tx.prepare(Sql.COMMIT_IDS_EXISTS).executeQuery()) {
      if (!r.next()) {
        return;
      }
    }
    var p = tx.prepare(Sql.COMMIT_IDS_PRUNE);
    p.setLong(1, now - AtomicWrite.IDEMPOTENCY_RETENTION.toMillis());
    p.executeUpdate();
  }

  /**
   * Reports to {@code sink} (docs/operations.md §5): group commits, sweeps, the queue, lock
   * waits and the write-ahead log.
   */
  @Override
  public void bindMeters(MeterSink sink) {
    ensureOpen();
    writer.bindMeters(sink);
    timer.bindMeters(sink);
    if (!config.readOnly()) {
      queue.bindMeters(sink);
    }
    meters.bind(sink, config.inMemory() ? null : config.path());
  }

  @Override
  public Optional<QueueDepth> queueDepth() {
    ensureOpen();
    return Optional.of(queue.depth());
  }

  @Override
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    ensureOpen();
    ensureWritable();
    return queue.dequeueNext(timeout);
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    ensureOpen();
    NotifiedWatch watch = new NotifiedWatch(this, shared.notifier, keys);
    watches.add(watch);
    shared.watching();
    return new EngineWatch() {
      @Override
      public List<Optional<RawEntry>> next() throws InterruptedException {
        return state.isClosed() ? null : watch.next();
      }

      @Override
      public boolean listen(Runnable listener) {
        return watch.listen(listener);
      }

      @Override
      public List<Optional<RawEntry>> poll() {
        return state.isClosed() ? null : watch.poll();
      }

      @Override
      public void close() {
        watches.remove(watch);
        watch.close();
      }
    };
  }

  boolean isClosed() {
    return state.isClosed();
  }

  private void ensureWritable() {
    if (config.readOnly()) {
      throw new KvException(config.path() + " was opened read-only (sqlite.readOnly)");
    }
  }

  void ensureOpen() {
    state.ensureOpen();
  }

  /** The configuration this engine was opened with. */
  public SqliteConfig config() {
    return config;
  }

  @Override
  public void close() {
    if (!state.close()) {
      return;
    }
    shared.removeForeignListener(rescanExpiry);
    if (readers != null) {
      shared.removeCommitListener(readersSeeCommit);
    }
    watches.forEach(NotifiedWatch::close);
    shared.queue.raise(); // listeners see the engine closed
    timer.stop(); // a sweep in progress finishes first: after close, nothing touches the file
    // The writer's connection closes last: only a read-write connection that closes last
    // checkpoints the write-ahead log and deletes it, leaving the file whole on its own.
    shared.closingConnections();
    if (readers != null) {
      readPool.shutdown();
      readers.close();
    }
    writer.close();
    shared.release();
    leftovers.ifPresent(ReadOnlyLeftovers::remove);
  }
}
