package dev.kvasir.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time all instances of one database agree on: the database server's clock, kept as an
 * offset from this machine's, measured again at every expiry sweep and by a read when 90 s have
 * passed without one (docs/postgres.md §11).
 * Instances compare each other's times: the end of a queue lease, an entry's expiry, a commit-log
 * row's age. By their own clocks, an instance running ahead counted another's lease as ended
 * and delivered its message a second time while the first handler still ran.
 */
final class DatabaseClock {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseClock.class);
  /** An offset beyond this is the machine's clock being wrong, worth an operator's look. */
  static final long WARN_BEYOND_MS = 1_000;

  /**
   * How old a measurement may be before a read measures again (by this machine's clock): longer
   * than the sweep's minute, so that an instance that sweeps never measures for a read.
   */
  static final long REMEASURE_AFTER_MS = 90_000;

  private final LongSupplier local;
  private volatile long offsetMs;
  /** When the offset was last measured, by this machine's clock. */
  private volatile long measuredAtMs;
  /** The offset last warned about; warned again only when it moves as much again. */
  private long warnedMs;

  /** A clock over {@code local}, this machine's milliseconds since the epoch. */
  DatabaseClock(LongSupplier local) {
    this.local = local;
  }

  /** Now, by the database server's clock, in milliseconds since the epoch. */
  long nowMs() {
    return local.getAsLong() + offsetMs;
  }

  /** The server's clock minus this machine's, as last measured. */
  long offsetMs() {
    return offsetMs;
  }

  /** A time by the server's clock as this machine's, for timers here; "never" stays never. */
  long toLocal(long serverMs) {
    return serverMs == Long.MAX_VALUE ? serverMs : serverMs - offsetMs;
  }

  /**
   * Measures again through {@code c} when the last measurement is more than 90 s old, or this
   * machine's clock has jumped by that much since. The sweep measures every minute, but
   * a read-only instance does not sweep, and its reads' expiry cut-off drifted with its clock.
   */
  void measureIfStale(Connection c, String where) throws SQLException {
    if (Math.abs(local.getAsLong() - measuredAtMs) > REMEASURE_AFTER_MS) {
      measure(c, where);
    }
  }

  /**
   * Reads the server's clock through {@code c}, taking the middle of the round trip as the
   * moment it was read.
   */
  void measure(Connection c, String where) throws SQLException {
    long before = local.getAsLong();
    long server;
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "select (extract(epoch from clock_timestamp()) * 1000)::bigint")) {
      r.next();
      server = r.getLong(1);
    }
    long after = local.getAsLong();
    long offset = server - (before + after) / 2;
    offsetMs = offset;
    measuredAtMs = after;
    synchronized (this) {
      if (Math.abs(offset) > WARN_BEYOND_MS && Math.abs(offset - warnedMs) > WARN_BEYOND_MS) {
        warnedMs = offset;
        LOG.warn("This machine's clock is {} s {} the clock of the database server of {}."
            + " Kvasir keeps time by the server's; set the machines' clocks (NTP), as other"
            + " programs may not", Math.abs(offset) / 1000.0,
            offset > 0 ? "behind" : "ahead of", where);
      }
    }
  }
}
