package dev.kvasir.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A benchmark's schema is dropped at its end whichever way its URL names the user: in the user
 * information or as a parameter, as the engine takes it. With the parameter, the drop logged in
 * as the operating system's user, whom the server does not know, and the schema stayed.
 */
class TempSchemaIT {
  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stop() throws Exception {
    postgres.close();
  }

  @Test
  void theSchemaIsDropped_withTheUserInTheUserInformation() throws Exception {
    assertDroppedAfterUse("postgresql://postgres@localhost:" + postgres.getPort() + "/postgres");
  }

  @Test
  void theSchemaIsDropped_withTheUserAsAParameter() throws Exception {
    assertDroppedAfterUse("postgresql://localhost:" + postgres.getPort() + "/postgres"
        + "?user=postgres");
  }

  private static void assertDroppedAfterUse(String database) throws Exception {
    try (TempSchema schema = new TempSchema(database, "temp_schema_it")) {
      try (Kv kv = Kv.open(schema.url())) {
        kv.set(KvKey.of("a"), 1);
      }
      assertThat(schemas()).isEqualTo(1);
    }
    assertThat(schemas()).isZero();
  }

  private static int schemas() throws Exception {
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(
            "select count(*) from pg_namespace where nspname like 'temp_schema_it%'")) {
      r.next();
      return r.getInt(1);
    }
  }
}
