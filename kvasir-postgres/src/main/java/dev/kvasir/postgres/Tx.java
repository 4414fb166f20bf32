package dev.kvasir.postgres;

import dev.kvasir.spi.AfterCommit;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StatementCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
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
 */
final class Tx {
  final Connection connection;
  final Sql sql;
  private final StatementCache statements;
  private final AfterCommit afterCommit = new AfterCommit();
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

  /** Starts a transaction: takes the commit-order lock and reads the current version. */
  void begin() throws SQLException {
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
  long nextVersion(int by) {
    version += by;
    return version;
  }

  /** Records keys a commit wrote, for watchers in every instance. */
  void changed(List<RawKey> keys) {
    changedKeys.addAll(keys);
  }

  /** Records that a queue message became available. */
  void enqueued() {
    enqueued = true;
  }

  /** Records that a row with an expiry was written. */
  void expiring() {
    expiring = true;
  }

  void afterCommit(Runnable action) {
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
  void finish(String instanceId, UUID commitId) throws SQLException {
    if (version != startVersion) {
      PreparedStatement p = prepare(sql.setVersion);
      p.setLong(1, version);
      p.executeUpdate();
    }
    boolean announce = !changedKeys.isEmpty() || enqueued;
    PreparedStatement log = prepare(announce ? sql.logCommitAndNotify : sql.logCommit);
    log.setObject(1, commitId, Types.OTHER);
    log.setLong(2, System.currentTimeMillis());
    if (announce) {
      log.setString(3, sql.channel);
      log.setString(4, Notification.payload(instanceId, enqueued, expiring, changedKeys));
    }
    log.executeUpdate();
  }

  void close() {
    statements.close();
  }
}
