package dev.kvasir.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JDBC connection with its prepared statements, each prepared once and reused across
 * transactions, as the SQL engines' writer and reader connections keep them. Used by one thread
 * at a time.
 */
public final class StatementCache implements AutoCloseable {
  private final Connection connection;
  private final Map<String, PreparedStatement> statements;

  /** A cache of every statement prepared: for a fixed set of texts. */
  public StatementCache(Connection connection) {
    this.connection = connection;
    this.statements = new HashMap<>(); // no access order to keep on the engines' hottest path
  }

  /**
   * A cache of the {@code limit} statements used last, for texts made at run time, of which a
   * few recur often and the rest seldom: the statement used longest ago is closed to make room.
   */
  public StatementCache(Connection connection, int limit) {
    this.connection = connection;
    this.statements = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
        if (size() <= limit) {
          return false;
        }
        closeQuietly(eldest.getValue());
        return true;
      }
    };
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
    statements.values().forEach(StatementCache::closeQuietly);
    statements.clear();
  }

  private static void closeQuietly(PreparedStatement s) {
    try {
      s.close();
    } catch (SQLException ignored) {
      // a statement that failed may not close cleanly; it is dropped either way
    }
  }

  /** Closes the statements and the connection, ignoring their errors: it is going anyway. */
  @Override
  public void close() {
    clear();
    try {
      connection.close();
    } catch (SQLException | RuntimeException ignored) {
      // closing anyway; a pool may fail on a connection it already dropped
    }
  }
}
