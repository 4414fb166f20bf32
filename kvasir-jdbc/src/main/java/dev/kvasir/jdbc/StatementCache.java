package dev.kvasir.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * A JDBC connection with its prepared statements, each prepared once and reused across
 * transactions, as the SQL engines' writer and reader connections keep them. Used by one thread
 * at a time.
 */
public final class StatementCache implements AutoCloseable {
  private final Connection connection;
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  public StatementCache(Connection connection) {
    this.connection = connection;
  }

  public Connection connection() {
    return connection;
  }

  /**
   * The statement for {@code sql}, prepared on first use. Its parameters keep the values of the
   * last use: callers bind every one. Clearing them is no cheap safety net: sqlite-jdbc passes it
   * on to {@code sqlite3_clear_bindings}, which expires a statement whose plan looked at a
   * parameter (the range reads), so its next run compiles it again; that tripled a point read.
   */
  public PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement s = statements.get(sql);
    if (s == null) {
      s = connection.prepareStatement(sql);
      statements.put(sql, s);
    }
    return s;
  }

  /** Closes the prepared statements, keeping the connection; they are prepared again on use. */
  public void clear() {
    for (PreparedStatement s : statements.values()) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // a statement that failed may not close cleanly; it is dropped either way
      }
    }
    statements.clear();
  }

  /** Closes the statements and the connection, ignoring their errors: it is going anyway. */
  @Override
  public void close() {
    clear();
    try {
      connection.close();
    } catch (SQLException ignored) {
      // closing anyway
    }
  }
}
