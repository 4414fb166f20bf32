package dev.kvasir.postgres;

import dev.kvasir.engine.AfterCommit;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.QueueTx;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.engine.StoredValue;
import dev.kvasir.jdbc.CommitIds;
import dev.kvasir.jdbc.JdbcRows;
import dev.kvasir.jdbc.QueueRows;
import dev.kvasir.jdbc.StatementCache;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The writer's connection inside one group-commit transaction: its prepared statements (kept
 * across transactions), the commit version, the changes to announce and the actions to run once
 * the transaction committed. Used by the writer thread only.
 *
 * <p>The transaction starts by locking the one {@code data_version} row, so commits of all
 * instances run one after another; every later statement of a READ COMMITTED transaction then
 * sees every commit before it, which makes checks exact. Each commit of the batch takes its own
 * version from the counter; the row is written once at the end.
 *
 * <p>As the rulebook's {@link QueueTx}, it is the storage primitives on the schema's tables:
 * consecutive puts, or consecutive deletes, go to the server as one JDBC batch (one round trip),
 * sent before anything reads and at the end of each write ({@link #flush()}).
 */
final class Tx implements QueueTx<SQLException> {
  /** Batches of 1 to 64 writes of one shape, each its own text, all kept. */
  private static final int PIPELINES_KEPT = 64;
  /**
   * Batched writes sent at once: a restore's or load's one transaction of a million puts held
   * every one in the driver's batch until its end.
   */
  private static final int BATCH_MAX = 1024;

  final Connection connection;
  final Sql sql;
  private final StatementCache statements;
  /**
   * The pipelined commits' statements ({@link Pipeline}), whose texts depend on the batch: the
   * few shapes a workload repeats keep theirs, instead of a statement made and closed per
   * commit.
   */
  private final StatementCache pipelines;
  private final AfterCommit afterCommit = new AfterCommit();
  /** The statement with batched puts or deletes not yet sent, or null. */
  private PreparedStatement pending;
  private int batched;
  private final List<RawKey> changedKeys = new ArrayList<>();
  private boolean enqueued;
  private boolean expiring;
  private long startVersion;
  private long version;
  private boolean autoCommit;
  /** The server process behind the connection: {@code pid} and {@code backend_start}. */
  final Backend backend;

  record Backend(int pid, Timestamp start) {}

  Tx(Connection connection, Sql sql) throws SQLException {
    this.connection = connection;
    this.statements = new StatementCache(connection);
    this.pipelines = new StatementCache(connection, PIPELINES_KEPT);
    this.sql = sql;
    connection.setAutoCommit(false);
    try (var s = connection.createStatement()) {
      // Commits never wait for this client between statements; a transaction that does has
      // lost its client, and must not hold the commit-order lock for long.
      s.execute("set idle_in_transaction_session_timeout = 30000");
      // A commit is acknowledged once durable (as Deno's); stronger settings stay as they are.
      try (ResultSet r = s.executeQuery("show synchronous_commit")) {
        if (r.next() && r.getString(1).equals("off")) {
          s.execute("set synchronous_commit = on");
        }
      }
    }
    try (var s = connection.createStatement(); ResultSet r = s.executeQuery(
        "select pid, backend_start from pg_stat_activity where pid = pg_backend_pid()")) {
      backend = r.next() ? new Backend(r.getInt(1), r.getTimestamp(2)) : null;
    }
    connection.commit();
  }

  /**
   * Auto-commit on for pipelined commits (the statements up to the Sync are one implicit
   * transaction), off for interactive ones. Free when no transaction is open.
   */
  void autoCommit(boolean on) throws SQLException {
    if (autoCommit != on) {
      connection.setAutoCommit(on);
      autoCommit = on;
    }
  }

  PreparedStatement prepare(String text) throws SQLException {
    return statements.prepare(text);
  }

  /** The statement of a pipelined commit with this text; see {@link #pipelines}. */
  PreparedStatement preparePipeline(String text) throws SQLException {
    return pipelines.prepare(text);
  }

  /** Starts a transaction: takes the commit-order lock and reads the current version. */
  void begin() throws SQLException {
    pending = null;
    batched = 0;
    changedKeys.clear();
    enqueued = false;
    expiring = false;
    afterCommit.take(); // a batch that failed half-way may have left some
    try (ResultSet r = prepare(sql.lockVersion).executeQuery()) {
      if (!r.next()) {
        throw new SQLException("the data_version row is missing from schema " + sql.schema);
      }
      startVersion = r.getLong(1);
      version = startVersion;
    }
  }

  /** A new commit version {@code by} above the last one (docs/sqlite.md §4). */
  @Override
  public long nextVersion(int by) {
    version += by;
    return version;
  }

  /** Records keys a commit wrote, for watchers in every instance. */
  void changed(List<RawKey> keys) {
    changedKeys.addAll(keys);
  }

  @Override
  public void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  /** The actions registered since the last call; the caller runs them after commit. */
  List<Runnable> takeAfterCommit() {
    return afterCommit.take();
  }

  /**
   * Writes the counter and the commit-log row, and queues the notification for other
   * instances; PostgreSQL delivers it only if the transaction commits.
   */
  void finish(String instanceId, UUID commitId, long nowMs) throws SQLException {
    flush();
    if (version != startVersion) {
      PreparedStatement p = prepare(sql.setVersion);
      p.setLong(1, version);
      p.executeUpdate();
    }
    boolean announce = !changedKeys.isEmpty() || enqueued;
    PreparedStatement log = prepare(announce ? sql.logCommitAndNotify : sql.logCommit);
    log.setObject(1, commitId, Types.OTHER);
    log.setLong(2, nowMs);
    if (announce) {
      log.setString(3, sql.channel);
      log.setString(4, Notification.payload(instanceId, enqueued, expiring, changedKeys,
          List.of()));
    }
    log.executeUpdate();
  }

  void close() {
    pipelines.clear();
    statements.close();
  }

  /**
   * The earliest expiry stored, this transaction's puts included: a load's last puts still
   * waited in the batch, unseen, and were swept only a minute late (docs/backup.md §3).
   */
  long earliestExpiry() throws SQLException {
    flush();
    return Reads.earliestExpiry(connection, sql);
  }

  @Override
  public StoredValue get(RawKey key, long nowMs) throws SQLException {
    flush(); // it must see the writes before it
    return JdbcRows.live(prepare(sql.get), key, nowMs);
  }

  /** Reads every key in one statement. */
  @Override
  public List<StoredValue> getAll(List<RawKey> keys, long nowMs) throws SQLException {
    flush();
    PreparedStatement p = prepare(sql.getAny);
    byte[][] bytes = new byte[keys.size()][];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = keys.get(i).sharedBytes();
    }
    p.setObject(1, bytes); // binary (Pipeline.set)
    p.setLong(2, nowMs);
    Map<RawKey, StoredValue> found = new HashMap<>();
    try (ResultSet r = p.executeQuery()) {
      while (r.next()) {
        found.put(RawKey.wrap(r.getBytes(1)),
            new StoredValue(EncodedValue.stored(r.getInt(3), r.getBytes(2)), r.getLong(4)));
      }
    }
    List<StoredValue> out = new ArrayList<>(keys.size());
    for (RawKey key : keys) {
      out.add(found.get(key));
    }
    return out;
  }

  @Override
  public void put(RawKey key, EncodedValue value, long version, long expireAtMs)
      throws SQLException {
    PreparedStatement p = batch(sql.set);
    p.setBytes(1, key.sharedBytes());
    p.setBytes(2, value.sharedBytes());
    p.setInt(3, value.code());
    p.setLong(4, version);
    p.setLong(5, expireAtMs);
    added(p);
    changedKeys.add(key);
    if (expireAtMs != Expiry.NEVER) {
      expiring = true;
    }
  }

  @Override
  public void delete(RawKey key) throws SQLException {
    PreparedStatement p = batch(sql.delete);
    p.setBytes(1, key.sharedBytes());
    added(p);
    changedKeys.add(key);
  }

  /** Adds the parameters set on {@code p} to its batch; a full batch is sent. */
  private void added(PreparedStatement p) throws SQLException {
    p.addBatch();
    if (++batched >= BATCH_MAX) {
      flush();
    }
  }

  /** The statement {@code text} for batching; sends the batch of another statement first. */
  private PreparedStatement batch(String text) throws SQLException {
    PreparedStatement p = prepare(text);
    if (pending != null && pending != p) {
      flush();
    }
    pending = p;
    return p;
  }

  /** Sends the batched puts or deletes. */
  void flush() throws SQLException {
    if (pending != null) {
      PreparedStatement p = pending;
      pending = null;
      batched = 0;
      p.executeBatch();
    }
  }

  @Override
  public long recordedCommit(String id) throws SQLException {
    return CommitIds.find(prepare(sql.findCommitId), id);
  }

  @Override
  public void recordCommit(String id, long version, long nowMs) throws SQLException {
    CommitIds.record(prepare(sql.addCommitId), id, version, nowMs);
  }

  @Override
  public void enqueue(QueuedMessage m) throws SQLException {
    flush();
    PreparedStatement p = prepare(sql.queueAdd);
    QueueRows.bind(p, m.dueMs(), m);
    p.executeUpdate();
    enqueued = true;
  }

  @Override
  public QueuedMessage claimRunning(String id, long leaseEndedBeforeMs) throws SQLException {
    flush();
    PreparedStatement claim = prepare(leaseEndedBeforeMs >= 0 ? sql.runningClaimExpired
        : sql.runningClaim);
    claim.setString(1, id);
    if (leaseEndedBeforeMs >= 0) {
      claim.setLong(2, leaseEndedBeforeMs);
    }
    try (ResultSet r = claim.executeQuery()) {
      return r.next() ? QueueRows.message(r) : null;
    }
  }
}
