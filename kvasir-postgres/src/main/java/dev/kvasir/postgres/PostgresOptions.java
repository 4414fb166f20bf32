package dev.kvasir.postgres;

import dev.kvasir.base.KvOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The PostgreSQL engine's options, typed: {@code Kv.open("postgresql://kvasir@db/app",
 * PostgresOptions.defaults().password(secret).schema("shop").build())}. The engine refuses an
 * option it does not know. Immutable; see {@link PostgresConfig} for what each setting does.
 */
public final class PostgresOptions {
  static final String PASSWORD = "password";
  static final String SCHEMA = "postgres.schema";
  static final String POOL_SIZE = "postgres.poolSize";
  static final String RETRY_TIMEOUT_MS = "postgres.retryTimeoutMs";
  static final String READ_ONLY = "postgres.readOnly";
  static final String QUEUE_POLL_MS = "postgres.queuePollMs";
  /** Every option the engine reads. */
  static final Set<String> NAMES = Set.of(PASSWORD, SCHEMA, POOL_SIZE, RETRY_TIMEOUT_MS,
      READ_ONLY, QUEUE_POLL_MS);

  private static final PostgresOptions DEFAULTS = new PostgresOptions(KvOptions.defaults());

  private final KvOptions options;

  private PostgresOptions(KvOptions options) {
    this.options = options;
  }

  public static PostgresOptions defaults() {
    return DEFAULTS;
  }

  /** The password, for a URL that leaves it out (so that it shows in no log or process list). */
  public PostgresOptions password(String password) {
    return new PostgresOptions(options.with(PASSWORD, Objects.requireNonNull(password)));
  }

  public PostgresOptions schema(String schema) {
    return new PostgresOptions(options.with(SCHEMA, Objects.requireNonNull(schema)));
  }

  public PostgresOptions poolSize(int poolSize) {
    return new PostgresOptions(options.with(POOL_SIZE, Integer.toString(poolSize)));
  }

  public PostgresOptions retryTimeout(Duration timeout) {
    return new PostgresOptions(options.with(RETRY_TIMEOUT_MS,
        Long.toString(Objects.requireNonNull(timeout, "timeout").toMillis())));
  }

  /** See {@link PostgresConfig#readOnly(boolean)}. */
  public PostgresOptions readOnly(boolean readOnly) {
    return new PostgresOptions(options.with(READ_ONLY, Boolean.toString(readOnly)));
  }

  /** See {@link PostgresConfig#queuePoll(Duration)}; whole milliseconds, at least one. */
  public PostgresOptions queuePoll(Duration poll) {
    return new PostgresOptions(options.with(QUEUE_POLL_MS,
        Long.toString(Objects.requireNonNull(poll, "poll").toMillis())));
  }

  /** The options for {@code Kv.open} or {@code Kv.builder(…).options(…)}. */
  public KvOptions build() {
    return options;
  }
}
