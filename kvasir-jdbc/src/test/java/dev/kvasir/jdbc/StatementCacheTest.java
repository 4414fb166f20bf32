package dev.kvasir.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The statement caches of the JDBC engines, on a real SQLite connection. */
class StatementCacheTest {
  private static Connection memory() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite::memory:");
  }

  private static long run(PreparedStatement s) throws SQLException {
    try (ResultSet r = s.executeQuery()) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void aTextIsPreparedOnceAndReused() throws SQLException {
    try (StatementCache cache = new StatementCache(memory())) {
      PreparedStatement first = cache.prepare("select 1");
      assertThat(cache.prepare("select 2")).isNotSameAs(first);
      assertThat(cache.prepare("select 1")).isSameAs(first);
      assertThat(run(first)).isEqualTo(1);
    }
  }

  @Test
  void aBoundedCacheClosesTheStatementUsedLongestAgo() throws SQLException {
    try (StatementCache cache = new StatementCache(memory(), 2)) {
      PreparedStatement one = cache.prepare("select 1");
      PreparedStatement two = cache.prepare("select 2");
      assertThat(cache.prepare("select 1")).isSameAs(one); // now "select 2" is the oldest
      PreparedStatement three = cache.prepare("select 3");

      assertThat(two.isClosed()).isTrue();
      assertThat(one.isClosed()).isFalse();
      assertThat(run(three)).isEqualTo(3);
      PreparedStatement twoAgain = cache.prepare("select 2"); // evicts "select 1"
      assertThat(twoAgain).isNotSameAs(two);
      assertThat(run(twoAgain)).isEqualTo(2);
      assertThat(one.isClosed()).isTrue();
    }
  }

  @Test
  void clearClosesTheStatementsAndKeepsTheConnection() throws SQLException {
    try (StatementCache cache = new StatementCache(memory(), 8)) {
      PreparedStatement one = cache.prepare("select 1");
      cache.clear();
      assertThat(one.isClosed()).isTrue();
      assertThat(cache.connection().isClosed()).isFalse();
      assertThat(run(cache.prepare("select 1"))).isEqualTo(1);
    }
  }

  @Test
  void closeClosesTheConnection() throws SQLException {
    StatementCache cache = new StatementCache(memory());
    PreparedStatement one = cache.prepare("select 1");
    cache.close();
    assertThat(one.isClosed()).isTrue();
    assertThat(cache.connection().isClosed()).isTrue();
  }
}
