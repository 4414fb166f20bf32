package dev.kvasir.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One connection inside a transaction, with its prepared statements cached across transactions,
 * and actions to run once the transaction committed (notifications must never announce a
 * change that was rolled back). Used by one thread at a time.
 */
final class Tx {
  private final Connection connection;
  private final Shared shared;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  private List<Runnable> afterCommit = new ArrayList<>();

  /** A transaction on {@code connection}; {@code shared} hears of the versions it commits. */
  Tx(Connection connection, Shared shared) {
    this.connection = connection;
    this.shared = shared;
  }

  PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement s = statements.get(sql);
    if (s == null) {
      s = connection.prepareStatement(sql);
      statements.put(sql, s);
    }
    s.clearParameters();
    return s;
  }

  /** Runs a statement without parameters, e.g. {@code commit}; prepared once, reused. */
  void execute(String sql) throws SQLException {
    prepare(sql).execute();
  }

  /** The transaction moved the commit version from {@code before} to {@code after}. */
  void versionBumped(long before, long after) {
    if (shared != null) {
      afterCommit(() -> shared.committed(before, after));
    }
  }

  void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  /** The actions registered since the last call; the caller runs them after commit. */
  List<Runnable> takeAfterCommit() {
    List<Runnable> out = afterCommit;
    afterCommit = new ArrayList<>();
    return out;
  }

  void close() {
    for (PreparedStatement s : statements.values()) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // closing anyway
    }
  }
}
