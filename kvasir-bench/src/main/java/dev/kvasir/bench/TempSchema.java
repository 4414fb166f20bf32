package dev.kvasir.bench;

import dev.kvasir.postgres.PostgresConfig;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

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
    try (Connection c = DriverManager.getConnection(config.jdbcUrl(), login());
        Statement s = c.createStatement()) {
      s.execute("drop schema if exists \"" + config.schema() + "\" cascade");
    }
  }

  /**
   * The user and password the URL gives, as the engine takes them: in its user information or
   * as {@code user} and {@code password} parameters, which win; else the password in {@code
   * PGPASSWORD}. The JDBC URL the engine's configuration makes holds neither.
   */
  private Properties login() {
    URI uri = URI.create(url);
    Map<String, String> given = new HashMap<>();
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      given.put("user", parts[0]);
      if (parts.length > 1) {
        given.put("password", parts[1]);
      }
    }
    for (String parameter : uri.getRawQuery().split("&")) {
      String[] pair = parameter.split("=", 2);
      if (pair.length == 2 && (pair[0].equals("user") || pair[0].equals("password"))) {
        given.put(pair[0], pair[1]);
      }
    }
    Properties login = new Properties();
    given.forEach((name, value) -> login.setProperty(name,
        URLDecoder.decode(value, StandardCharsets.UTF_8)));
    if (!login.containsKey("password") && System.getenv("PGPASSWORD") != null) {
      login.setProperty("password", System.getenv("PGPASSWORD"));
    }
    return login;
  }
}
