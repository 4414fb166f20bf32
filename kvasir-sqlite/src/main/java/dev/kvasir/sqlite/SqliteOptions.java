package dev.kvasir.sqlite;

import dev.kvasir.base.KvOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The SQLite engine's options, typed: {@code Kv.open("app.sqlite3",
 * SqliteOptions.defaults().synchronous(Synchronous.NORMAL).build())}. The engine refuses an
 * option it does not know, so a misspelt name in a {@link KvOptions} fails when opening.
 * Immutable; see {@link SqliteConfig} for what each setting does.
 */
public final class SqliteOptions {
  static final String SYNCHRONOUS = "sqlite.synchronous";
  static final String READERS = "sqlite.readers";
  static final String BUSY_TIMEOUT_MS = "sqlite.busyTimeoutMs";
  static final String READ_ONLY = "sqlite.readOnly";
  static final String QUEUE_POLL_MS = "sqlite.queuePollMs";
  /** Every option the engine reads. */
  static final Set<String> NAMES = Set.of(SYNCHRONOUS, READERS, BUSY_TIMEOUT_MS, READ_ONLY,
      QUEUE_POLL_MS);

  private static final SqliteOptions DEFAULTS = new SqliteOptions(KvOptions.defaults());

  private final KvOptions options;

  private SqliteOptions(KvOptions options) {
    this.options = options;
  }

  public static SqliteOptions defaults() {
    return DEFAULTS;
  }

  public SqliteOptions synchronous(SqliteConfig.Synchronous synchronous) {
    return new SqliteOptions(options.with(SYNCHRONOUS, synchronous.name()));
  }

  /** Reader connections, 1 to 64 (default 4). */
  public SqliteOptions readers(int readers) {
    return new SqliteOptions(options.with(READERS, Integer.toString(readers)));
  }

  public SqliteOptions busyTimeout(Duration timeout) {
    return new SqliteOptions(options.with(BUSY_TIMEOUT_MS,
        Long.toString(Objects.requireNonNull(timeout, "timeout").toMillis())));
  }

  public SqliteOptions readOnly(boolean readOnly) {
    return new SqliteOptions(options.with(READ_ONLY, Boolean.toString(readOnly)));
  }

  /** See {@link SqliteConfig#queuePoll(Duration)}; whole milliseconds, at least one. */
  public SqliteOptions queuePoll(Duration poll) {
    return new SqliteOptions(options.with(QUEUE_POLL_MS,
        Long.toString(Objects.requireNonNull(poll, "poll").toMillis())));
  }

  /** The options for {@code Kv.open} or {@code Kv.builder(…).options(…)}. */
  public KvOptions build() {
    return options;
  }
}
