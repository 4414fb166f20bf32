package dev.kvasir.engine;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * When an engine's next expiry sweep runs: at most one sweep is pending, and the earliest time
 * asked for wins (a commit whose entry expires sooner moves the sweep forward; a later one
 * leaves it). Thread-safe.
 */
final class SweepSchedule {
  private final ScheduledExecutorService timer;
  private final Runnable sweep;
  private ScheduledFuture<?> next; // guarded by this
  private long nextAt = Long.MAX_VALUE; // guarded by this
  private boolean stopped; // guarded by this

  /** Runs {@code sweep} on {@code timer} when due. */
  SweepSchedule(ScheduledExecutorService timer, Runnable sweep) {
    this.timer = timer;
    this.sweep = sweep;
  }

  /** Makes a sweep run at {@code atMs} (epoch milliseconds), unless one is due sooner. */
  synchronized void atOrBefore(long atMs) {
    if (stopped || atMs >= nextAt) {
      return;
    }
    if (next != null) {
      next.cancel(false);
    }
    nextAt = atMs;
    long delay = Math.max(0, atMs - System.currentTimeMillis());
    try {
      next = timer.schedule(sweep, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // the timer is shut down: the engine is closing
    }
  }

  /**
   * A sweep calls this as it starts: it is the one that was due, and commits from now on
   * schedule the next.
   */
  synchronized void started() {
    nextAt = Long.MAX_VALUE;
    next = null;
  }

  /** Schedules nothing more (the engine is closing). */
  synchronized void stop() {
    stopped = true;
  }
}
