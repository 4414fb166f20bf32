package dev.kvasir.spi;

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

  /** The statement for {@code sql}, prepared on first use, with its parameters cleared. */
  public PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement s = statements.get(sql);
    if (s == null) {
      s = connection.prepareStatement(sql);
      statements.put(sql, s);
    }
    s.clearParameters();
    return s;
  }

  /** Closes the statements and the connection, ignoring their errors: it is going anyway. */
  @Override
  public void close() {
    for (PreparedStatement s : statements.values()) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
    statements.clear();
    try {
      connection.close();
    } catch (SQLException ignored) {
      // closing anyway
    }
  }
}
