package dev.kvasir.engine;

import dev.kvasir.base.MeterSink;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one timer thread of an engine, for its expiry sweeps and queue leases: a daemon, so an
 * engine a program forgot to close does not keep the JVM alive. It also counts and logs what the
 * sweeps did.
 */
public final class EngineTimer {
  private static final Logger LOG = LoggerFactory.getLogger(EngineTimer.class);

  private final String name;
  private final ScheduledExecutorService executor;
  private final SweepSchedule sweeps;
  private volatile Thread thread;
  private volatile LongConsumer sweepsDone = n -> { };
  private volatile LongConsumer entriesSwept = n -> { };
  private volatile LongConsumer sweepsFailed = n -> { };

  /** A timer whose thread is called {@code name} and that runs {@code sweep} when due. */
  public EngineTimer(String name, Runnable sweep) {
    this.name = name;
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

  /** The sweep calls this when it deleted {@code removed} expired entries. */
  public void sweepFinished(int removed) {
    sweepsDone.accept(1);
    entriesSwept.accept(removed);
    if (removed > 0) {
      LOG.debug("{}: the expiry sweep deleted {} expired entries", name, removed);
    }
  }

  /**
   * The sweep calls this when it failed; it is tried again later. A sweep that {@link #stop}
   * interrupted did not fail: the engine is closing, and the next open sweeps.
   */
  public void sweepFailed(RuntimeException e) {
    if (executor.isShutdown()) {
      LOG.debug("{}: the expiry sweep was cut short by the engine's close: {}", name,
          e.getMessage());
      return;
    }
    sweepsFailed.accept(1);
    LOG.warn("{}: the expiry sweep failed and is tried again within a minute: {}", name,
        e.getMessage());
  }

  /**
   * Reports the sweeps to {@code sink}: {@code kvasir.engine.sweeps} by outcome and {@code
   * kvasir.engine.swept.entries} (docs/operations.md §5).
   */
  public void bindMeters(MeterSink sink) {
    sweepsDone = sweepsDone.andThen(sink.counter("kvasir.engine.sweeps",
        "Expiry sweeps run", "outcome", "done"));
    sweepsFailed = sweepsFailed.andThen(sink.counter("kvasir.engine.sweeps",
        "Expiry sweeps run", "outcome", "failed"));
    entriesSwept = entriesSwept.andThen(sink.counter("kvasir.engine.swept.entries",
        "Expired entries the sweeps deleted"));
  }

  public ScheduledExecutorService executor() {
    return executor;
  }

  /**
   * Schedules no more sweeps, cancels what is scheduled and waits (up to 5 s) for a task in
   * progress, so that once an engine's close returns nothing of it runs; from the timer's own
   * thread it cannot wait.
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
