package dev.kvasir.sqlite;

import dev.kvasir.engine.AfterCommit;
import dev.kvasir.engine.QueueTx;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.engine.StoredValue;
import dev.kvasir.jdbc.CommitIds;
import dev.kvasir.jdbc.QueueRows;
import dev.kvasir.jdbc.StatementCache;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One connection inside a transaction, with its prepared statements cached across transactions,
 * and actions to run once the transaction committed (notifications must never announce a
 * change that was rolled back). As the rulebook's {@link QueueTx}, it is the storage
 * primitives on denokv's tables: consecutive puts go out as one multi-row statement, written
 * before anything else touches {@code kv} and at the end of each task ({@link #flush()}). Used
 * by one thread at a time.
 */
final class Tx implements QueueTx<SQLException> {
  private final StatementCache statements;
  private final Shared shared;
  private final AfterCommit afterCommit = new AfterCommit();
  /**
   * Puts written at once, in full statements: a restore's or load's one transaction of a
   * million puts held every one until its end.
   */
  private static final int PENDING_MAX = 16 * Sql.SET_ROWS_MAX;
  /** Puts not yet written, in order. */
  private final List<Row> pending = new ArrayList<>();
  /** The file's version as this transaction left it so far, or −1 before the first bump. */
  private long version = -1;
  /** Whether {@link #version} is ahead of what the transaction wrote to data_version. */
  private boolean versionUnwritten;

  /** A transaction on {@code connection}; {@code shared} hears of the versions it commits. */
  Tx(Connection connection, Shared shared) {
    this.statements = new StatementCache(connection);
    this.shared = shared;
  }

  PreparedStatement prepare(String sql) throws SQLException {
    return statements.prepare(sql);
  }

  /** Runs a statement without parameters, e.g. {@code commit}; prepared once, reused. */
  void execute(String sql) throws SQLException {
    prepare(sql).execute();
  }

  /**
   * Moves the file's commit version up by {@code by} and returns the new version (reference
   * §3.4). Only the first bump of a transaction goes to data_version at once; later ones are
   * counted here and written by {@link #finish}, which saves a statement per commit of a group.
   * The writer holds SQLite's write lock throughout, so nobody else can bump in between.
   */
  @Override
  public long nextVersion(int by) throws SQLException {
    long before = version;
    if (before < 0) {
      PreparedStatement p = prepare(Sql.BUMP_VERSION);
      p.setInt(1, by);
      try (ResultSet r = p.executeQuery()) {
        r.next();
        version = r.getLong(1);
      }
      before = version - by;
      if (shared != null) {
        afterCommit(shared::transactionCommitted); // once per transaction, however many bumps
      }
    } else {
      version += by;
      versionUnwritten = true;
    }
    if (shared != null) {
      long after = version;
      long from = before;
      afterCommit(() -> shared.committed(from, after));
    }
    return version;
  }

  /** Starts a write transaction. */
  void beginImmediate() throws SQLException {
    pending.clear();
    version = -1;
    versionUnwritten = false;
    execute("begin immediate");
  }

  /**
   * Leaves whatever transaction a failure interrupted, so that the connection is usable again
   * and SQLite's write lock is released: drops every prepared statement (one that failed
   * half-way can stay in a state where it never runs again) and rolls back with a statement of
   * its own. A failed COMMIT, for one, leaves its transaction open.
   *
   * @return whether the connection is known to be outside a transaction now
   */
  boolean abandon() {
    pending.clear();
    statements.clear();
    try (Statement s = statements.connection().createStatement()) {
      s.execute("rollback");
      return true;
    } catch (SQLException e) {
      // "cannot rollback - no transaction is active": SQLite already rolled it back.
      return e.getMessage() != null && e.getMessage().contains("no transaction is active");
    }
  }

  /** Writes what is pending and the version that later bumps moved on: all but the COMMIT. */
  void finish() throws SQLException {
    flush();
    if (versionUnwritten) {
      PreparedStatement p = prepare(Sql.SET_VERSION);
      p.setLong(1, version);
      p.executeUpdate();
      versionUnwritten = false;
    }
  }

  /**
   * Commits. A storage fault here may come after the whole transaction reached the log, where
   * the next open would find it (docs/sqlite.md §10).
   */
  void commit() throws SQLException {
    execute("commit");
  }

  @Override
  public void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  /** The actions registered since the last call; the caller runs them after commit. */
  List<Runnable> takeAfterCommit() {
    return afterCommit.take();
  }

  void close() {
    statements.close();
  }

  /**
   * Copies the write-ahead log into the file and empties it, outside any transaction.
   *
   * @return false if a reader of the log kept it from being emptied
   */
  boolean emptyLog() throws SQLException {
    try (Statement s = statements.connection().createStatement();
        ResultSet r = s.executeQuery("pragma wal_checkpoint(truncate)")) {
      return r.next() && r.getInt(1) == 0; // the first column is 1 when it could not finish
    }
  }

  /**
   * The earliest expiry stored, {@code Long.MAX_VALUE} for none, this transaction's puts
   * included: a load that asked while its last puts were still pending found none of theirs, and
   * they were swept only a minute late (docs/backup.md §3).
   */
  long earliestExpiry() throws SQLException {
    flush();
    try (var r = prepare(Sql.EARLIEST_EXPIRATION).executeQuery()) {
      return r.next() ? r.getLong(1) : Long.MAX_VALUE;
    }
  }

  @Override
  public StoredValue get(RawKey key, long nowMs) throws SQLException {
    flush(); // it must see the writes before it
    return DirectRows.value(prepare(Sql.GET_VALUE), key, nowMs);
  }

  @Override
  public void put(RawKey key, EncodedValue value, long version, long expireAtMs)
      throws SQLException {
    pending.add(new Row(key, value, version, expireAtMs));
    if (pending.size() == PENDING_MAX) {
      flush();
    }
  }

  /** A put not yet written. */
  private record Row(RawKey key, EncodedValue value, long version, long expireAtMs) {}

  /**
   * Writes the pending puts, {@link Sql#SET_ROWS_MAX} per statement: one statement per row costs
   * SQLite and the driver about as much again as the insert itself.
   */
  void flush() throws SQLException {
    for (int from = 0; from < pending.size(); from += Sql.SET_ROWS_MAX) {
      int n = Math.min(Sql.SET_ROWS_MAX, pending.size() - from);
      PreparedStatement p = prepare(n == 1 ? Sql.SET : Sql.setRows(n));
      for (int i = 0; i < n; i++) {
        Row row = pending.get(from + i);
        int at = 5 * i;
        p.setBytes(at + 1, row.key().sharedBytes());
        p.setBytes(at + 2, row.value().sharedBytes());
        p.setInt(at + 3, row.value().code());
        p.setLong(at + 4, row.version());
        p.setLong(at + 5, row.expireAtMs());
      }
      p.executeUpdate();
    }
    pending.clear();
  }

  @Override
  public void delete(RawKey key) throws SQLException {
    flush();
    PreparedStatement p = prepare(Sql.DELETE);
    p.setBytes(1, key.sharedBytes());
    p.executeUpdate();
  }

  /** Creates Kvasir's idempotency table on first use, so files that never need it stay Deno's. */
  @Override
  public long recordedCommit(String id) throws SQLException {
    execute(Sql.COMMIT_IDS_CREATE);
    return CommitIds.find(prepare(Sql.COMMIT_IDS_FIND), id);
  }

  @Override
  public void recordCommit(String id, long version, long nowMs) throws SQLException {
    CommitIds.record(prepare(Sql.COMMIT_IDS_ADD), id, version, nowMs);
  }

  @Override
  public void enqueue(QueuedMessage m) throws SQLException {
    PreparedStatement p = prepare(Sql.QUEUE_ADD);
    QueueRows.bind(p, m.dueMs(), m);
    p.executeUpdate();
  }

  @Override
  public QueuedMessage claimRunning(String id, long leaseEndedBeforeMs) throws SQLException {
    PreparedStatement get = prepare(Sql.RUNNING_BY_ID);
    get.setString(1, id);
    QueuedMessage m;
    try (ResultSet r = get.executeQuery()) {
      if (!r.next() || leaseEndedBeforeMs >= 0 && r.getLong(1) > leaseEndedBeforeMs) {
        return null;
      }
      m = QueueRows.message(r);
    }
    PreparedStatement remove = prepare(Sql.RUNNING_REMOVE);
    remove.setString(1, id);
    remove.executeUpdate();
    return m;
  }
}
