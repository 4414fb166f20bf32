package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * What a proxy that pools transactions (PgBouncer in transaction mode) does to the engine: the
 * server session it lends already holds other clients' prepared statements under the names
 * pgjdbc gives its own, and the engine failed with PostgreSQL's "prepared statement "S_1"
 * already exists" alone. Here the sessions are made that way by hand; the error must say what
 * is likely wrong and what works (docs/postgres.md §9).
 */
class PoolingProxyIT {
  @Test
  void aSessionHoldingAnotherClientsPreparedStatements_isExplained() {
    PGSimpleDataSource plain = new PGSimpleDataSource();
    plain.setUrl("jdbc:" + TestPostgres.url().replace("postgres@", ""));
    plain.setUser("postgres");
    PGSimpleDataSource shared = new PGSimpleDataSource() {
      @Override
      public Connection getConnection() throws SQLException {
        Connection c = plain.getConnection();
        try (Statement s = c.createStatement()) {
          for (int i = 1; i <= 50; i++) { // what the client before left in the session
            s.execute("prepare \"S_" + i + "\" as select " + i);
          }
        }
        return c;
      }
    };
    String schema = TestPostgres.freshSchema("proxy");
    assertThatThrownBy(() -> {
      try (Kv kv = Kv.of(PostgresEngine.open(PostgresConfig.of(shared).schema(schema)))) {
        for (int i = 0; i < 20; i++) { // pgjdbc prepares on the server from the fifth run
          kv.set(KvKey.of("k", i), i);
        }
      }
    }).isInstanceOf(KvException.class)
        .hasMessageContaining("already exists")
        .hasMessageContaining("Is this a proxy that pools transactions, such as PgBouncer in"
            + " transaction mode? Kvasir needs server sessions of its own");
  }
}
