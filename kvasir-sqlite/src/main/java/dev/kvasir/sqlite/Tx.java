package dev.kvasir.sqlite;

import dev.kvasir.spi.AfterCommit;
import dev.kvasir.spi.StatementCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One connection inside a transaction, with its prepared statements cached across transactions,
 * and actions to run once the transaction committed (notifications must never announce a
 * change that was rolled back). Used by one thread at a time.
 */
final class Tx {
  private final StatementCache statements;
  private final Shared shared;
  private final AfterCommit afterCommit = new AfterCommit();
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
   * counted here and written by {@link #commit}, which saves a statement per commit of a group.
   * The writer holds SQLite's write lock throughout, so nobody else can bump in between.
   */
  long bumpVersion(int by) throws SQLException {
    long before = version;
    if (before < 0) {
      PreparedStatement p = prepare(Sql.BUMP_VERSION);
      p.setInt(1, by);
      try (ResultSet r = p.executeQuery()) {
        r.next();
        version = r.getLong(1);
      }
      before = version - by;
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
    statements.clear();
    try (Statement s = statements.connection().createStatement()) {
      s.execute("rollback");
      return true;
    } catch (SQLException e) {
      // "cannot rollback - no transaction is active": SQLite already rolled it back.
      return e.getMessage() != null && e.getMessage().contains("no transaction is active");
    }
  }

  /** Writes the version that later bumps moved on, and commits. */
  void commit() throws SQLException {
    if (versionUnwritten) {
      PreparedStatement p = prepare(Sql.SET_VERSION);
      p.setLong(1, version);
      p.executeUpdate();
      versionUnwritten = false;
    }
    execute("commit");
  }

  void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  /** The actions registered since the last call; the caller runs them after commit. */
  List<Runnable> takeAfterCommit() {
    return afterCommit.take();
  }

  void close() {
    statements.close();
  }
}
