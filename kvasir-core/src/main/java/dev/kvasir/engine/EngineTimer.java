package dev.kvasir.engine;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one timer thread of an engine, for its expiry sweeps and queue leases: a daemon, so an
 * engine a program forgot to close does not keep the JVM alive.
 */
public final class EngineTimer {
  private final ScheduledExecutorService executor;
  private final SweepSchedule sweeps;
  private volatile Thread thread;

  /** A timer whose thread is called {@code name} and that runs {@code sweep} when due. */
  public EngineTimer(String name, Runnable sweep) {
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      thread = t;
      return t;
    });
    this.sweeps = new SweepSchedule(executor, sweep);
  }

  /** Makes the sweep run at {@code atMs} (epoch milliseconds), unless one is due sooner. */
  public void sweepAtOrBefore(long atMs) {
    sweeps.atOrBefore(atMs);
  }

  /**
   * The sweep calls this as it starts: it is the one that was due, and commits from now on
   * schedule the next.
   */
  public void sweepStarted() {
    sweeps.started();
  }

  public ScheduledExecutorService executor() {
    return executor;
  }

  /**
   * Schedules no more sweeps, cancels what is scheduled and waits (up to 5 s) for a task in progress, so that once an
   * engine's close returns nothing of it runs; from the timer's own thread it cannot wait.
   */
  public void stop() {
    sweeps.stop();
    executor.shutdownNow();
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
