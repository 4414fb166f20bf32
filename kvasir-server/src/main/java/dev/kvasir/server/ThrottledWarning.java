package dev.kvasir.server;

import java.time.Duration;
import java.util.Arrays;
import org.slf4j.Logger;

/**
 * A warning that one fault repeats many times a second: each request answered 503 while the
 * disk is full, each accept at the connection limit. It is logged the first time, then at most
 * once per interval, with how many were left out in between (docs/operations.md §6); the
 * metrics count every one.
 */
final class ThrottledWarning {
  private final Logger log;
  private final long intervalNanos;
  private boolean warned; // guarded by this
  private long lastNanos; // guarded by this
  private long leftOut; // guarded by this

  ThrottledWarning(Logger log, Duration interval) {
    this.log = log;
    this.intervalNanos = interval.toNanos();
  }

  /** Logs the SLF4J {@code format} with {@code args}, unless one went out within the interval. */
  synchronized void warn(String format, Object... args) {
    long now = System.nanoTime();
    if (warned && now - lastNanos < intervalNanos) {
      leftOut++;
      return;
    }
    if (leftOut == 0) {
      log.warn(format, args);
    } else {
      Object[] withCount = Arrays.copyOf(args, args.length + 1);
      withCount[args.length] = leftOut;
      log.warn(format + " ({} more since the last such warning were not logged)", withCount);
    }
    warned = true;
    lastNanos = now;
    leftOut = 0;
  }
}
