package dev.kvasir.cli;

import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.spi.KvEngine;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@code kvasir serve} opens a database that is not reachable yet (docs/operations.md §2):
 * a PostgreSQL server started at the same time (Docker Compose, a pod's other container, a
 * machine booting) refuses connections for a few seconds, and a server that exited at once
 * left it to the service manager to start it again, which systemd gives up after five quick
 * failures and Compose without a restart policy never does. Failures that waiting does not
 * mend (a wrong password, no such database) end the start at once.
 */
final class DatabaseWait {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseWait.class);
  private static final Duration FIRST_PAUSE = Duration.ofMillis(500);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

  private DatabaseWait() {}

  /**
   * Opens the engine, trying again while it is unavailable, for up to {@code wait}.
   *
   * @return the engine, or null if {@code stop} was counted down while waiting
   * @throws KvUnavailableException the last failure, once {@code wait} has passed
   */
  static @Nullable KvEngine open(Supplier<KvEngine> open, Duration wait, CountDownLatch stop)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    Duration pause = FIRST_PAUSE;
    while (true) {
      try {
        return open.get();
      } catch (KvUnavailableException e) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new KvUnavailableException(e.getMessage() + wording(wait), false, e);
        }
        long pauseNanos = Math.min(pause.toNanos(), left);
        LOG.warn("The database is not reachable yet ({}); trying again in {} s, for up to {} s"
            + " more (--db-wait)", e.getMessage(), seconds(pauseNanos), seconds(left));
        if (stop.await(pauseNanos, TimeUnit.NANOSECONDS)) {
          return null;
        }
        pause = Collections.min(List.of(pause.multipliedBy(2), LONGEST_PAUSE));
      }
    }
  }

  private static String wording(Duration wait) {
    return wait.isZero() ? "" : " (still, after waiting " + seconds(wait.toNanos())
        + " s for it; --db-wait sets how long)";
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e9).replaceAll("\\.0$", "");
  }
}
