package dev.kvasir.postgres;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.engine.LeasedQueue;
import dev.kvasir.spi.Engines;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.PGProperty;

/**
 * Where a {@link PostgresEngine} keeps its data and how it talks to the server. Immutable; each
 * setter returns a copy.
 *
 * <ul>
 *   <li>The server: a URL {@code postgresql://user:password@host:port/database?param=value} (also
 *       {@code postgres://}; other parameters go to the JDBC driver, e.g. {@code sslmode}), or a
 *       {@link DataSource} the application already has.
 *   <li>{@code schema}: the PostgreSQL schema holding Kvasir's tables, created if missing
 *       (default {@code kvasir}), so one database can hold several Kvasir databases next to the
 *       application's own tables.
 *   <li>{@code poolSize}: connections of the pool the engine creates for a URL (default 10).
 *   <li>{@code retryTimeout}: how long an operation keeps retrying while the server is
 *       unreachable or a transaction is aborted by a conflict, before it fails with {@link
 *       dev.kvasir.base.KvUnavailableException} (default 30 s).
 * </ul>
 *
 * In a URL, {@code schema}, {@code poolSize} and {@code retryTimeoutMs} are query parameters;
 * through {@link dev.kvasir.Kv#open(String, KvOptions)} they are also the options {@code
 * postgres.schema}, {@code postgres.poolSize} and {@code postgres.retryTimeoutMs}. The option
 * {@code password} gives the password of a URL that leaves it out, so that it need not appear
 * on a command line ({@code kvasir serve --db-password-file}); without it, libpq's {@code
 * PGPASSWORD} and then {@code ~/.pgpass} do (docs/postgres.md §8); {@code postgres.readOnly=true}
 * opens it {@link #readOnly(boolean) for reading only}, and {@code postgres.queuePollMs} sets the
 * {@link #queuePoll(Duration) queue's poll}.
 */
public final class PostgresConfig {
  private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final Pattern URL =
      Pattern.compile("(?:postgresql|postgres)://(?:([^@/?]*)@)?([^/?]*)(?:/([^?]*))?(?:\\?(.*))?");

  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final DataSource dataSource;
  private final String schema;
  private final int poolSize;
  private final Duration retryTimeout;
  private final boolean readOnly;
  private final Duration queuePoll;

  private PostgresConfig(String jdbcUrl, String user, String password, DataSource dataSource,
      String schema, int poolSize, Duration retryTimeout, boolean readOnly, Duration queuePoll) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    this.dataSource = dataSource;
    this.schema = schema;
    this.poolSize = poolSize;
    this.retryTimeout = retryTimeout;
    this.readOnly = readOnly;
    this.queuePoll = queuePoll;
  }

  /**
   * A server URL, {@code postgresql://user:password@host:port/database?param=value}; user,
   * password, port and database are optional as in libpq.
   *
   * @throws KvArgumentException for a malformed URL or Kvasir parameter
   */
  public static PostgresConfig of(String url) {
    Objects.requireNonNull(url, "url");
    var m = URL.matcher(url);
    if (m.matches() && m.group(2).isEmpty()) {
      // libpq reads no host as its Unix socket (psql postgresql:///app); pgjdbc has TCP only.
      throw new KvArgumentException("a postgresql:// URL needs a host name: without one,"
          + " libpq and psql use the server's Unix socket, which the JDBC driver cannot reach;"
          + " name the host, e.g. postgresql://localhost/db: " + Engines.redact(url));
    }
    if (!m.matches()) {
      throw new KvArgumentException("not a PostgreSQL URL (expected"
          + " postgresql://user:password@host:port/database): " + Engines.redact(url));
    }
    String user = null;
    String password = null;
    if (m.group(1) != null) {
      String[] userInfo = m.group(1).split(":", 2);
      user = decode(userInfo[0]);
      password = userInfo.length > 1 ? decode(userInfo[1]) : null;
    }
    Map<String, String> params = query(m.group(4));
    // libpq's URLs may give both as parameters too; kept out of the JDBC URL, which messages
    // and the server's banner show.
    String userParam = params.remove("user");
    String passwordParam = params.remove("password");
    user = userParam != null ? decode(userParam) : user;
    password = passwordParam != null ? decode(passwordParam) : password;
    String schema = params.remove("schema");
    String poolSize = params.remove("poolSize");
    String retryMs = params.remove("retryTimeoutMs");
    params.keySet().forEach(PostgresConfig::requireDriverParameter);
    StringBuilder jdbc = new StringBuilder("jdbc:postgresql://").append(m.group(2)).append('/');
    jdbc.append(m.group(3) == null ? "" : m.group(3));
    String sep = "?";
    for (Map.Entry<String, String> p : params.entrySet()) {
      jdbc.append(sep).append(p.getKey()).append('=').append(p.getValue());
      sep = "&";
    }
    PostgresConfig c = new PostgresConfig(jdbc.toString(), user, password, null, "kvasir", 10,
        Duration.ofSeconds(30), false, LeasedQueue.DEFAULT_POLL);
    if (schema != null) {
      c = c.schema(decode(schema));
    }
    if (poolSize != null) {
      c = c.poolSize(parseInt("poolSize", poolSize));
    }
    if (retryMs != null) {
      c = c.retryTimeout(Duration.ofMillis(parseInt("retryTimeoutMs", retryMs)));
    }
    return c;
  }

  /**
   * A data source the application manages; the engine borrows connections and never closes it.
   * Its connections are used as they come: give them {@code plan_cache_mode =
   * force_generic_plan}, as the engine's own pool has, or lists right after a bulk fill may be
   * planned badly (docs/postgres.md §5).
   */
  public static PostgresConfig of(DataSource dataSource) {
    Objects.requireNonNull(dataSource, "dataSource");
    return new PostgresConfig(null, null, null, dataSource, "kvasir", 10, Duration.ofSeconds(30),
        false, LeasedQueue.DEFAULT_POLL);
  }

  /**
   * The settings of {@code options} applied to {@link #of(String) of(location)}.
   *
   * @throws KvArgumentException for an option the engine does not read, or a bad value
   */
  static PostgresConfig from(String location, KvOptions options) {
    options.requireKnown("PostgreSQL", PostgresOptions.NAMES);
    PostgresConfig c = of(location);
    String secret = options.get(PostgresOptions.PASSWORD).orElse(null);
    if (secret != null) {
      c = new PostgresConfig(c.jdbcUrl, c.user, secret, null, c.schema, c.poolSize,
          c.retryTimeout, c.readOnly, c.queuePoll);
    }
    String schema = options.get(PostgresOptions.SCHEMA).orElse(null);
    if (schema != null) {
      c = c.schema(schema);
    }
    // Checked here, by the options' names: the typed setters name their parameters.
    c = c.poolSize(options.intValue(PostgresOptions.POOL_SIZE, c.poolSize, 3, 1000));
    c = c.readOnly(options.booleanValue(PostgresOptions.READ_ONLY, false));
    c = c.queuePoll(LeasedQueue.checkPoll(PostgresOptions.QUEUE_POLL_MS,
        options.millisValue(PostgresOptions.QUEUE_POLL_MS, c.queuePoll)));
    return c.retryTimeout(options.millisValue(PostgresOptions.RETRY_TIMEOUT_MS,
        c.retryTimeout));
  }

  /** @throws KvArgumentException unless a lower-case SQL identifier of at most 63 bytes */
  public PostgresConfig schema(String schema) {
    if (schema == null || !SCHEMA.matcher(schema).matches()) {
      throw new KvArgumentException("schema must be a lower-case identifier"
          + " ([a-z_][a-z0-9_]*, at most 63 characters): received " + schema);
    }
    return new PostgresConfig(jdbcUrl, user, password, dataSource, schema, poolSize,
        retryTimeout, readOnly, queuePoll);
  }

  /**
   * @throws KvArgumentException unless 3 ≤ poolSize ≤ 1000 (one connection writes, one
   *     listens for notifications, the others read)
   */
  public PostgresConfig poolSize(int poolSize) {
    if (poolSize < 3 || poolSize > 1000) {
      throw new KvArgumentException("poolSize must be 3 to 1000: received " + poolSize);
    }
    return new PostgresConfig(jdbcUrl, user, password, dataSource, schema, poolSize,
        retryTimeout, readOnly, queuePoll);
  }

  /** @throws KvArgumentException for a negative timeout */
  public PostgresConfig retryTimeout(Duration retryTimeout) {
    if (retryTimeout.isNegative()) {
      throw new KvArgumentException("retryTimeout must not be negative: " + retryTimeout);
    }
    return new PostgresConfig(jdbcUrl, user, password, dataSource, schema, poolSize,
        retryTimeout, readOnly, queuePoll);
  }

  /**
   * For reading only, as a role with nothing but SELECT can: the schema must exist at this
   * version (it is not created or upgraded), expired rows are left for a writing instance to
   * delete, and commits and queue deliveries fail (docs/postgres.md §8).
   */
  public PostgresConfig readOnly(boolean readOnly) {
    return new PostgresConfig(jdbcUrl, user, password, dataSource, schema, poolSize,
        retryTimeout, readOnly, queuePoll);
  }

  /**
   * How long a queue listener with nothing due waits before it looks again when nothing wakes
   * it (default 1 s). This instance's enqueues, retries and releases wake it at once, and so do
   * other instances' commits, through {@code NOTIFY} (docs/queues.md §3); the poll bounds what
   * a lost notification costs.
   *
   * @throws KvArgumentException for a poll shorter than a millisecond
   */
  public PostgresConfig queuePoll(Duration queuePoll) {
    LeasedQueue.checkPoll("queuePoll", queuePoll);
    return new PostgresConfig(jdbcUrl, user, password, dataSource, schema, poolSize,
        retryTimeout, readOnly, queuePoll);
  }

  public boolean readOnly() {
    return readOnly;
  }

  /** The JDBC URL, without user and password; {@code null} for a {@link DataSource}. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  String user() {
    return user;
  }

  String password() {
    return password;
  }

  DataSource dataSource() {
    return dataSource;
  }

  public String schema() {
    return schema;
  }

  public int poolSize() {
    return poolSize;
  }

  public Duration retryTimeout() {
    return retryTimeout;
  }

  public Duration queuePoll() {
    return queuePoll;
  }

  /** Names the database in messages, never with a password. */
  String describe() {
    String where = jdbcUrl == null ? "the given DataSource" : Engines.redact(jdbcUrl);
    return where + " (schema " + schema + ")";
  }

  private static Map<String, String> query(String query) {
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return out;
    }
    for (String pair : query.split("&")) {
      if (!pair.isEmpty()) {
        int eq = pair.indexOf('=');
        out.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
      }
    }
    return out;
  }

  /**
   * Refuses a URL parameter the driver does not know: it would ignore it without a word, so
   * that {@code ?sslmod=require} connected without requiring TLS (the default, {@code prefer})
   * and libpq's {@code connect_timeout} (pgjdbc's {@code connectTimeout}) had no effect. psql
   * refuses such a URL too.
   */
  private static void requireDriverParameter(String name) {
    if (PGProperty.forName(name) != null) {
      return;
    }
    String meant = "";
    for (PGProperty known : PGProperty.values()) {
      if (folded(known.getName()).equals(folded(name))) {
        meant = "; did you mean " + known.getName() + "?";
      }
    }
    throw new KvArgumentException("'" + name + "' is no parameter of a postgresql:// URL: not"
        + " Kvasir's (schema, poolSize, retryTimeoutMs) nor one the PostgreSQL JDBC driver"
        + " reads (https://jdbc.postgresql.org/documentation/use/)" + meant);
  }

  /** A name as libpq or pgjdbc may write it: application_name, ApplicationName. */
  private static String folded(String name) {
    return name.replace("_", "").toLowerCase(Locale.ROOT);
  }

  private static int parseInt(String name, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new KvArgumentException(name + " must be an integer: received " + value);
    }
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "PostgresConfig[" + describe() + ", poolSize=" + poolSize + ", retryTimeout="
        + retryTimeout + ", queuePoll=" + queuePoll + "]";
  }
}
