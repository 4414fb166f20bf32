package dev.kvasir.sqlite;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.engine.LeasedQueue;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How a {@link SqliteEngine} opens its file. Immutable; each setter returns a copy.
 *
 * <ul>
 *   <li>{@code synchronous}: SQLite's {@code synchronous} pragma; {@link Synchronous#FULL} by
 *       default, Deno's durability: a commit is acknowledged only once it is on disk.
 *   <li>{@code readers}: read-only connections serving reads in parallel (default 4).
 *   <li>{@code busyTimeout}: how long a commit waits for another process's lock, retrying with
 *       jittered backoff, before it fails (default 5 s, as Deno).
 *   <li>{@code readOnly}: open without ever writing (default false): no schema upgrade, no
 *       expiry sweeps, no queue; writes fail. Works on a read-only file system and while
 *       another process holds the write lock. The file must exist with the current schema.
 *   <li>{@code queuePoll}: how long a queue listener with nothing due waits before it looks
 *       again when nothing wakes it (default 1 s). Enqueues, retries and releases in this JVM
 *       wake it at once, and so do other processes' commits, which the engine watches for
 *       (docs/queues.md §3); the poll bounds what a missed wake-up costs.
 * </ul>
 *
 * Through {@link dev.kvasir.Kv#open(String, KvOptions)} the same settings are the options
 * {@code sqlite.synchronous} ({@code OFF|NORMAL|FULL|EXTRA}), {@code sqlite.readers},
 * {@code sqlite.busyTimeoutMs}, {@code sqlite.readOnly} ({@code true|false}) and {@code
 * sqlite.queuePollMs}, which {@link SqliteOptions} writes typed; any other option is refused.
 */
public final class SqliteConfig {
  /** SQLite's durability levels for WAL mode. */
  public enum Synchronous { OFF, NORMAL, FULL, EXTRA }

  private final String path;
  private final Synchronous synchronous;
  private final int readers;
  private final Duration busyTimeout;
  private final boolean readOnly;
  private final Duration queuePoll;

  private SqliteConfig(String path, Synchronous synchronous, int readers, Duration busyTimeout,
      boolean readOnly, Duration queuePoll) {
    this.path = path;
    this.synchronous = synchronous;
    this.readers = readers;
    this.busyTimeout = busyTimeout;
    this.readOnly = readOnly;
    this.queuePoll = queuePoll;
  }

  /**
   * A file path, or {@code ":memory:"} for a private in-memory database.
   *
   * @throws KvArgumentException for a path no one means as a file name: empty, starting with
   *     ':' or like a URL (docs/sqlite.md §1)
   */
  public static SqliteConfig of(String path) {
    Objects.requireNonNull(path, "path");
    FileNames.check(path);
    return new SqliteConfig(path, Synchronous.FULL, 4, Duration.ofSeconds(5), false,
        LeasedQueue.DEFAULT_POLL);
  }

  /**
   * The settings of {@code options} applied to {@link #of(String) of(location)}.
   *
   * @throws KvArgumentException for an option the engine does not read, or a bad value
   */
  static SqliteConfig from(String location, KvOptions options) {
    options.requireKnown("SQLite", SqliteOptions.NAMES);
    SqliteConfig c = of(location);
    String sync = options.get(SqliteOptions.SYNCHRONOUS).orElse(null);
    if (sync != null) {
      try {
        c = c.synchronous(Synchronous.valueOf(sync.toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new KvArgumentException(SqliteOptions.SYNCHRONOUS + " must be OFF, NORMAL, FULL"
            + " or EXTRA: received " + sync);
      }
    }
    // Checked here, by the options' names: the typed setters name their parameters.
    return c.readers(options.intValue(SqliteOptions.READERS, c.readers, 1, 64))
        .readOnly(options.booleanValue(SqliteOptions.READ_ONLY, false))
        .busyTimeout(options.millisValue(SqliteOptions.BUSY_TIMEOUT_MS, c.busyTimeout))
        .queuePoll(LeasedQueue.checkPoll(SqliteOptions.QUEUE_POLL_MS,
            options.millisValue(SqliteOptions.QUEUE_POLL_MS, c.queuePoll)));
  }

  public SqliteConfig synchronous(Synchronous synchronous) {
    return new SqliteConfig(path, Objects.requireNonNull(synchronous), readers, busyTimeout,
        readOnly, queuePoll);
  }

  /** @throws KvArgumentException unless 1 ≤ readers ≤ 64 */
  public SqliteConfig readers(int readers) {
    if (readers < 1 || readers > 64) {
      throw new KvArgumentException("readers must be 1 to 64: received " + readers);
    }
    return new SqliteConfig(path, synchronous, readers, busyTimeout, readOnly, queuePoll);
  }

  /** @throws KvArgumentException for a negative timeout */
  public SqliteConfig busyTimeout(Duration busyTimeout) {
    if (busyTimeout.isNegative()) {
      throw new KvArgumentException("busyTimeout must not be negative: " + busyTimeout);
    }
    return new SqliteConfig(path, synchronous, readers, busyTimeout, readOnly, queuePoll);
  }

  /** Opens the file without ever writing to it (see the class comment). */
  public SqliteConfig readOnly(boolean readOnly) {
    return new SqliteConfig(path, synchronous, readers, busyTimeout, readOnly, queuePoll);
  }

  /** @throws KvArgumentException for a poll shorter than a millisecond */
  public SqliteConfig queuePoll(Duration queuePoll) {
    LeasedQueue.checkPoll("queuePoll", queuePoll);
    return new SqliteConfig(path, synchronous, readers, busyTimeout, readOnly, queuePoll);
  }

  public boolean readOnly() {
    return readOnly;
  }

  public String path() {
    return path;
  }

  public boolean inMemory() {
    return ":memory:".equals(path);
  }

  public Synchronous synchronous() {
    return synchronous;
  }

  public int readers() {
    return readers;
  }

  public Duration busyTimeout() {
    return busyTimeout;
  }

  public Duration queuePoll() {
    return queuePoll;
  }

  @Override
  public String toString() {
    return "SqliteConfig[path=" + path + ", synchronous=" + synchronous + ", readers=" + readers
        + ", busyTimeout=" + busyTimeout + (readOnly ? ", readOnly" : "") + ", queuePoll="
        + queuePoll + "]";
  }
}
