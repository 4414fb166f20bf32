package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries work that another process's lock made fail ({@code SQLITE_BUSY}/{@code
 * SQLITE_LOCKED}) with jittered, growing sleeps, up to the busy timeout; then a clear error.
 */
final class Busy {
  private static final Logger LOG = LoggerFactory.getLogger(Busy.class);

  private final Duration timeout;
  private final String what;
  private final SqliteMeters meters;
  private final long deadline;
  private int attempt;

  /**
   * The retries of one piece of work, called {@code what} in errors. Callers loop themselves
   * rather than hand a lambda to a shared helper: one call site running every kind of work
   * made the JIT compile reads and commits as one huge unit, which took 130 ms of the one C2
   * thread of a small machine.
   */
  Busy(Duration timeout, String what, SqliteMeters meters) {
    this.timeout = timeout;
    this.what = what;
    this.meters = meters;
    this.deadline = System.nanoTime() + timeout.toNanos();
  }

  static boolean isBusy(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    return primary == 5 || primary == 6;
  }

  /**
   * Sleeps before the next attempt when {@code failure} is a lock held by another process and
   * the timeout allows; otherwise throws {@code failure}, or a clear error once time is up.
   */
  void backOff(SQLException failure) throws SQLException {
    if (!isBusy(failure)) {
      throw failure;
    }
    if (System.nanoTime() >= deadline) {
      // Unavailable, as a full disk: the same work succeeds once the other process lets go.
      LOG.warn("{}: gave up waiting {} ms for a lock another process holds", what,
          timeout.toMillis());
      throw new KvUnavailableException(what + ": the database is locked by another process;"
          + " gave up after " + timeout.toMillis() + " ms (raise the option"
          + " sqlite.busyTimeoutMs to wait longer; on the command line --db-option"
          + " sqlite.busyTimeoutMs=30000)", false, failure);
    }
    meters.lockWaited();
    if (attempt == 0) {
      LOG.debug("{}: waiting for a lock another process holds ({})", what, failure.getMessage());
    }
    long cap = Math.min(100, 5L << Math.min(attempt++, 5));
    sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted while waiting for a database lock", e);
    }
  }
}
