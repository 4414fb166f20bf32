package dev.kvasir.bench;

import dev.kvasir.postgres.PostgresConfig;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A fresh schema in a PostgreSQL database for one measurement, dropped on close, so that runs
 * start empty and leave the database as they found it (a database that fills up with old runs
 * measures its own vacuuming).
 */
final class TempSchema implements AutoCloseable {
  private final String url;

  /** A schema named {@code name} and a unique suffix in the database {@code databaseUrl}. */
  TempSchema(String databaseUrl, String name) {
    this.url = databaseUrl + (databaseUrl.contains("?") ? "&" : "?") + "schema=" + name + "_"
        + System.nanoTime();
  }

  /** The {@code postgresql://} URL of the schema, for {@code Kv.open}. */
  String url() {
    return url;
  }

  @Override
  public void close() throws SQLException {
    PostgresConfig config = PostgresConfig.of(url);
    String userInfo = URI.create(url).getRawUserInfo();
    String user = null;
    String password = null;
    if (userInfo != null) {
      String[] parts = userInfo.split(":", 2);
      user = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
      password = parts.length > 1 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : null;
    }
    try (Connection c = DriverManager.getConnection(config.jdbcUrl(), user, password);
        Statement s = c.createStatement()) {
      s.execute("drop schema if exists \"" + config.schema() + "\" cascade");
    }
  }
}
