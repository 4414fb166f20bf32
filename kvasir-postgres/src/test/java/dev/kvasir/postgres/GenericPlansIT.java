package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * The engine's pool plans each statement once for all parameters (docs/postgres.md §5): lists
 * over a table filled moments ago, which has no statistics yet, are not planned from guesses.
 */
class GenericPlansIT {
  /** Enough executions for pgjdbc to prepare the statement on the server (its fifth) and more. */
  private static final int EXECUTIONS = 12;

  @Test
  void rangeReads_onTheEnginesConnections_areNeverPlannedForTheirParameters() throws Exception {
    String schema = TestPostgres.freshSchema("plans");
    String url = TestPostgres.url() + "?schema=" + schema;
    fill(url);
    try (Database db = Database.open(PostgresConfig.of(url))) {
      long[] plans = db.run("count plans", c -> runRangeAndCountPlans(c, schema));
      assertThat(plans[0]).as("custom plans").isZero();
      assertThat(plans[1]).as("generic plans").isPositive();
    }
    // The same on a plain connection, where PostgreSQL's default plans for the parameters at
    // first: this is what the test would see if the engine's setting were lost.
    try (Connection plain = TestPostgres.admin()) {
      assertThat(runRangeAndCountPlans(plain, schema)[0]).as("custom plans").isPositive();
    }
  }

  /** 10 000 entries written moments before the lists, as by a bulk load. */
  private static void fill(String url) {
    try (Kv kv = Kv.open(url)) {
      for (int batch = 0; batch < 10; batch++) {
        var atomic = kv.atomic();
        for (int i = 0; i < 1000; i++) {
          atomic.set(KvKey.of("bench", batch * 1000 + i), i);
        }
        assertThat(atomic.commit().ok()).isTrue();
      }
    }
  }

  /** Runs the engine's forward range statement; returns its custom and generic plan counts. */
  private static long[] runRangeAndCountPlans(Connection c, String schema) throws SQLException {
    Sql sql = new Sql(schema);
    byte[] start = KvKey.of("bench").encode();
    byte[] end = start.clone();
    end[end.length - 1] = (byte) 0xff;
    try (PreparedStatement p = c.prepareStatement(sql.rangeForward)) {
      for (int i = 0; i < EXECUTIONS; i++) {
        p.setBytes(1, start);
        p.setBytes(2, end);
        p.setLong(3, System.currentTimeMillis());
        p.setInt(4, 500);
        try (ResultSet r = p.executeQuery()) {
          int rows = 0;
          while (r.next()) {
            rows++;
          }
          assertThat(rows).isEqualTo(500);
        }
      }
      try (PreparedStatement q = c.prepareStatement("select custom_plans, generic_plans"
          + " from pg_prepared_statements where statement like '%order by k limit%'");
          ResultSet r = q.executeQuery()) {
        assertThat(r.next()).as("the range statement is prepared on the server").isTrue();
        return new long[] {r.getLong(1), r.getLong(2)};
      }
    }
  }
}
