package dev.kvasir.sqlite;

import dev.kvasir.KvException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Retries work that another process's lock made fail ({@code SQLITE_BUSY}/{@code
 * SQLITE_LOCKED}) with jittered, growing sleeps, up to the busy timeout; then a clear error.
 */
final class Busy {
  interface Work<T> {
    T run() throws SQLException;
  }

  private Busy() {}

  static boolean isBusy(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    return primary == 5 || primary == 6;
  }

  static <T> T retry(Duration timeout, String what, Work<T> work) throws SQLException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int attempt = 0;
    while (true) {
      try {
        return work.run();
      } catch (SQLException e) {
        if (!isBusy(e)) {
          throw e;
        }
        if (System.nanoTime() >= deadline) {
          throw new KvException(what + ": the database is locked by another process; gave up"
              + " after " + timeout.toMillis() + " ms (raise sqlite.busyTimeoutMs to wait longer)",
              e);
        }
        long cap = Math.min(100, 5L << Math.min(attempt++, 5));
        sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
      }
    }
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
