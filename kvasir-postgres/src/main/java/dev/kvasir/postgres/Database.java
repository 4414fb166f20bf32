package dev.kvasir.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.MeterSink;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections of one engine and the rules for retrying on them. A statement that fails
 * because the connection broke, the server is restarting, PostgreSQL aborted the transaction
 * to resolve a conflict, or the server refuses writes or lacks resources is retried with
 * jittered backoff until {@code retryTimeout}; then the caller gets a {@link
 * KvUnavailableException}. Other SQL errors are bugs or misuse and fail at once.
 */
final class Database implements AutoCloseable {
  /** Work on one connection; run again from the start when it is retried. */
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** Why a statement failed, as far as retrying is concerned. */
  enum Failure {
    /** The connection or the server is gone; nothing the transaction did survived. */
    CONNECTION,
    /** A serialization failure or deadlock: PostgreSQL rolled the transaction back. */
    CONFLICT,
    /**
     * The server refuses the work for now, whatever it is: it takes no writes (a standby, or a
     * primary demoted by a failover) or lacks disk, memory or room for another connection.
     * Nothing was applied; a new connection, later, may succeed (docs/postgres.md §7).
     */
    REFUSED,
    /** Anything else: retrying would fail the same way. */
    OTHER
  }

  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  /**
   * Run on each new connection of the pool this engine makes: plan every statement once for any
   * parameters (docs/postgres.md §5). Custom plans of a list over a table filled seconds before,
   * without statistics, sort a whole range to return its first rows. A server before
   * PostgreSQL 12, which has no such setting, is left as it is.
   */
  private static final String GENERIC_PLANS = "select set_config('plan_cache_mode',"
      + " 'force_generic_plan', false) from pg_settings where name = 'plan_cache_mode'";

  private final DataSource source;
  private final HikariDataSource owned;
  private volatile LongConsumer connectionRetries = n -> { };
  private volatile LongConsumer conflictRetries = n -> { };
  private volatile LongConsumer refusedRetries = n -> { };
  private final Duration retryTimeout;
  private final String where;
  private final DatabaseClock clock;
  private volatile boolean closed;
  /** The server's {@code idle_session_timeout} for our sessions in ms; 0 for none. */
  private volatile long idleSessionTimeoutMs;

  private Database(DataSource source, HikariDataSource owned, Duration retryTimeout,
      String where, LongSupplier localClock) {
    this.source = source;
    this.owned = owned;
    this.retryTimeout = retryTimeout;
    this.where = where;
    this.clock = new DatabaseClock(localClock);
  }

  /**
   * libpq's {@code PGPASSWORD}, for a URL that leaves the password out, as {@code psql} takes it
   * (docs/postgres.md §8); pgjdbc reads {@code ~/.pgpass} itself, but not this. Null if unset.
   */
  private static String environmentPassword() {
    String password = System.getenv("PGPASSWORD");
    return password == null || password.isEmpty() ? null : password;
  }

  /** Connects as {@code config} says; a pool is created for a URL. */
  static Database open(PostgresConfig config) {
    return open(config, System::currentTimeMillis);
  }

  /** As {@link #open(PostgresConfig)}, with {@code localClock} as this machine's clock. */
  static Database open(PostgresConfig config, LongSupplier localClock) {
    if (config.dataSource() != null) {
      return new Database(config.dataSource(), null, config.retryTimeout(), config.describe(),
          localClock);
    }
    HikariConfig h = new HikariConfig();
    h.setJdbcUrl(config.jdbcUrl());
    if (config.user() != null) {
      h.setUsername(config.user());
    }
    String password = config.password() != null ? config.password() : environmentPassword();
    if (password != null) {
      h.setPassword(password);
    }
    h.setPoolName("kvasir-postgres " + config.schema());
    h.setMaximumPoolSize(config.poolSize());
    h.setMinimumIdle(Math.min(2, config.poolSize()));
    // A dead server makes getConnection fail after this; the retry loop then tries again.
    h.setConnectionTimeout(Math.max(250, Math.min(5_000, config.retryTimeout().toMillis())));
    h.setInitializationFailTimeout(1); // open fails at once when the server is unreachable
    h.addDataSourceProperty("ApplicationName", "kvasir");
    h.addDataSourceProperty("tcpKeepAlive", "true");
    // A server that stops answering without closing the connection (frozen, or cut off by a
    // network that drops packets) would hold a statement for as long as the kernel's keepalive
    // takes to notice, two hours by default. A read that waits longer than the retry budget
    // fails instead, as a lost connection, which the retry loop handles (docs/postgres.md §7).
    h.addDataSourceProperty("socketTimeout",
        String.valueOf(Math.max(1, (config.retryTimeout().toMillis() + 999) / 1000)));
    h.setConnectionInitSql(GENERIC_PLANS);
    try {
      HikariDataSource pool = new HikariDataSource(h);
      return new Database(pool, pool, config.retryTimeout(), config.describe(), localClock);
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      Throwable root = cause;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      // pgjdbc says "The connection attempt failed." for a host name that does not resolve.
      String why = root instanceof UnknownHostException ? " (unknown host " + root.getMessage()
          + ")" : "";
      String message = "cannot connect to " + config.describe() + ": " + cause.getMessage() + why
          + (password == null && String.valueOf(cause.getMessage()).contains("no password")
              ? " Give it in the URL (postgresql://user:password@…), as the option password"
                  + " (kvasir: --db-password-file), in PGPASSWORD or in ~/.pgpass." : "");
      // A server that is not up yet, or a name not in DNS yet (a container started beside
      // ours): later may succeed. A refused password or a missing database will not.
      if (root instanceof UnknownHostException
          || cause instanceof SQLException s && isTransient(s)) {
        throw new KvUnavailableException(message, false, e);
      }
      throw new KvException(message, e);
    }
  }

  /** Whether {@code e} says the server is out of reach or refuses work for now (§7). */
  static boolean isTransient(SQLException e) {
    Failure f = classify(e);
    return f == Failure.CONNECTION || f == Failure.REFUSED;
  }

  /** A connection for long-lived use (the writer, the notification listener). */
  Connection connection() throws SQLException {
    return source.getConnection();
  }

  /**
   * Runs idempotent work on a pooled connection in auto-commit mode, retrying through
   * connection losses and conflicts.
   */
  <T> T run(String what, Work<T> work) {
    return retrying(what, () -> {
      try (Connection c = source.getConnection()) {
        try {
          return work.run(c);
        } catch (SQLException e) {
          if (classify(e) == Failure.REFUSED) {
            evict(c);
          }
          throw e;
        }
      }
    });
  }

  /**
   * Reads the {@code idle_session_timeout} that the server applies to this role's sessions, and
   * has the pool this engine made retire each connection before the server would end it for
   * idleness, so that neither a read nor HikariCP's check meets an ended session
   * (docs/postgres.md §7). HikariCP retires connections no sooner than 30 s after they open.
   */
  void learnIdleSessionTimeout(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "select setting::bigint from pg_settings where name = 'idle_session_timeout'")) {
      idleSessionTimeoutMs = r.next() ? r.getLong(1) : 0; // no such setting before 14
    }
    long lifetime = idleSessionTimeoutMs * 3 / 4;
    if (owned != null && idleSessionTimeoutMs > 0 && lifetime >= 30_000
        && lifetime < owned.getMaxLifetime()) {
      owned.getHikariConfigMXBean().setMaxLifetime(lifetime);
      owned.getHikariPoolMXBean().softEvictConnections(); // those made before: retire them now
    }
  }

  /** The server's {@code idle_session_timeout} in ms, 0 for none, as last learnt. */
  long idleSessionTimeoutMs() {
    return idleSessionTimeoutMs;
  }

  /**
   * Takes {@code c} out of the pool for good: its session may refuse writes for its whole life
   * (one opened on a standby keeps {@code default_transaction_read_only}), so the retry needs a
   * new one (docs/postgres.md §7). A caller's own pool gets the connection back; it must drop
   * such connections itself.
   */
  void evict(Connection c) {
    if (owned != null) {
      owned.evictConnection(c);
    }
  }

  /** Work that may be retried as a whole. */
  interface Attempt<T> {
    T run() throws SQLException;
  }

  /** Retries {@code attempt} while it fails with any {@link Failure} but {@code OTHER}. */
  <T> T retrying(String what, Attempt<T> attempt) {
    long deadline = System.nanoTime() + retryTimeout.toNanos();
    for (int tries = 0; ; tries++) {
      if (closed) {
        throw new KvClosedException();
      }
      try {
        return attempt.run();
      } catch (SQLException e) {
        if (closed) {
          throw new KvClosedException();
        }
        Failure f = classify(e);
        if (f == Failure.OTHER) {
          throw new KvException(what + " failed on " + where + ": " + explain(e), e);
        }
        if (System.nanoTime() >= deadline) {
          throw unavailable(what, e, false);
        }
        retried(what, f, e, tries);
        backoff(tries);
      }
    }
  }

  /**
   * Counts and logs a retry: the first of a connection failure or a refusal as a warning (the
   * database is out of reach, or takes no writes), conflicts and later attempts only when
   * debugging.
   */
  void retried(String what, Failure failure, SQLException e, int tries) {
    (switch (failure) {
      case CONNECTION -> connectionRetries;
      case REFUSED -> refusedRetries;
      default -> conflictRetries;
    }).accept(1);
    if (tries == 0 && failure != Failure.CONFLICT && !endedForIdleness(e)) {
      LOG.warn("{} on {} failed ({}); retrying for up to {} ms", what, where, e.getMessage(),
          retryTimeout.toMillis());
    } else {
      LOG.debug("{} on {}: retry {} after {}", what, where, tries + 1, e.getMessage());
    }
  }

  /**
   * Reports retries by cause ({@code kvasir.postgres.retries}) and, for a pool this engine made,
   * its connections by state (docs/operations.md §5).
   */
  void bindMeters(MeterSink sink) {
    String retries = "kvasir.postgres.retries";
    String what = "Statements run again after a lost connection or a conflict";
    connectionRetries = connectionRetries.andThen(sink.counter(retries, what,
        "cause", "connection"));
    conflictRetries = conflictRetries.andThen(sink.counter(retries, what, "cause", "conflict"));
    refusedRetries = refusedRetries.andThen(sink.counter(retries, what, "cause", "refused"));
    sink.gauge("kvasir.postgres.clock.offset.seconds", "How far the database server's clock is"
        + " ahead of this machine's (negative: behind), as last measured",
        () -> clock.offsetMs() / 1000.0);
    if (owned == null) {
      return; // the caller's own pool, metered by the caller
    }
    String connections = "kvasir.postgres.pool.connections";
    String state = "The pool's connections: in use, idle, and threads waiting for one";
    sink.gauge(connections, state, () -> pool(HikariPoolMXBean::getActiveConnections),
        "state", "active");
    sink.gauge(connections, state, () -> pool(HikariPoolMXBean::getIdleConnections),
        "state", "idle");
    sink.gauge(connections, state, () -> pool(HikariPoolMXBean::getThreadsAwaitingConnection),
        "state", "pending");
  }

  private double pool(ToIntFunction<HikariPoolMXBean> reading) {
    HikariPoolMXBean pool = owned.getHikariPoolMXBean();
    return pool == null ? 0 : reading.applyAsInt(pool);
  }

  /** The error for work that kept failing until the retry timeout. */
  KvUnavailableException unavailable(String what, SQLException e, boolean maybeApplied) {
    String outcome = maybeApplied
        ? "; the connection broke while committing, so the write may or may not have been"
            + " applied: read before retrying, or retry with a check"
        : "; nothing was applied, retry later";
    return new KvUnavailableException(what + ": PostgreSQL at " + where + " is unavailable ("
        + e.getMessage() + ") after retrying for " + retryTimeout.toMillis() + " ms" + outcome,
        maybeApplied, e);
  }

  static void backoff(int tries) {
    if (!pause(tries)) {
      throw new KvException("interrupted while waiting to retry",
          new InterruptedException());
    }
  }

  /**
   * Waits before retry {@code tries + 1}: jittered, growing to half a second.
   *
   * @return false, with the interrupt set again, if the thread was interrupted meanwhile
   */
  static boolean pause(int tries) {
    long cap = Math.min(500, 10L << Math.min(tries, 6));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * PostgreSQL's message for {@code e}, with the privileges each use takes where the role lacks
   * one (42501), and a hint where it is what a proxy that pools transactions causes: the
   * session carries prepared statements of other clients (42P05), or lacks ours (26000). Such
   * a proxy (PgBouncer in transaction or statement mode) shares one server session among
   * clients, while the engine needs sessions of its own (docs/postgres.md §9).
   */
  static String explain(SQLException e) {
    if (privilegeRefused(e)) {
      // PostgreSQL names the table, not the role's way out (docs/postgres.md §8).
      return e.getMessage() + ". The role lacks a privilege: reading takes USAGE on the schema"
          + " and SELECT on its tables, writing INSERT, UPDATE and DELETE as well; a role that"
          + " may only read opens the database with postgres.readOnly=true";
    }
    if (!anyState(e, state -> state.equals("42P05") || state.equals("26000"))) {
      return e.getMessage();
    }
    return e.getMessage() + ". Is this a proxy that pools transactions, such as PgBouncer in"
        + " transaction mode? Kvasir needs server sessions of its own: connect to PostgreSQL"
        + " directly, or through the proxy in session mode";
  }

  /** Whether {@code e} or a cause is PostgreSQL's {@code insufficient_privilege} (42501). */
  static boolean privilegeRefused(Throwable e) {
    return anyState(e, "42501"::equals);
  }

  /** Whether {@code e} or a cause says the server ended the session for being idle. */
  static boolean endedForIdleness(Throwable e) {
    return anyState(e, Database::idleTimeout);
  }

  private static boolean anyState(Throwable e, Predicate<String> test) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null && test.test(s.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code state} says that the server ended the session for being idle:
   * {@code idle_session_timeout} (57P05) or {@code idle_in_transaction_session_timeout}
   * (25P03), which a DBA may set for the role or the database. The session held no work of
   * ours then; a connection kept between commits (the writer's) meets it at its next statement
   * (docs/postgres.md §7).
   */
  private static boolean idleTimeout(String state) {
    return state.equals("57P05") || state.equals("25P03");
  }

  static Failure classify(SQLException e) {
    if (e instanceof SQLTransientConnectionException) {
      return Failure.CONNECTION; // the pool could not get a connection in time
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null) {
        String state = s.getSQLState();
        // A broken connection; the server shutting down or starting; a session it ended for
        // idleness, or for a transaction longer than transaction_timeout (PostgreSQL 17, 25P04)
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
            || state.equals("57P03") || idleTimeout(state) || state.equals("25P04")) {
          return Failure.CONNECTION;
        }
        // Serialization failure, deadlock; and a statement cancelled by the role's
        // lock_timeout or statement_timeout, in our statements only ever while waiting for
        // another instance's lock: nothing applied, and the lock comes free (docs/postgres.md §7)
        if (state.equals("40001") || state.equals("40P01") || state.equals("55P03")
            || state.equals("57014")) {
          return Failure.CONFLICT;
        }
        // read_only_sql_transaction; insufficient resources (disk full, out of memory, too
        // many connections); an I/O error on the server
        if (state.equals("25006") || state.startsWith("53") || state.equals("58030")) {
          return Failure.REFUSED;
        }
      }
    }
    return Failure.OTHER;
  }

  /** Where the data lives, for messages. */
  String where() {
    return where;
  }

  /** The time all instances agree on, the server's (docs/postgres.md §11). */
  DatabaseClock clock() {
    return clock;
  }

  /** Closes the pool if this engine created it; a caller's data source stays open. */
  @Override
  public void close() {
    closed = true;
    if (owned != null) {
      owned.close();
    }
  }
}
