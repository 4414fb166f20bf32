package dev.kvasir.memory;

import dev.kvasir.engine.LeasedQueue;
import dev.kvasir.engine.RulebookEngine;
import java.time.Duration;

/**
 * An in-process engine with Deno KV's full semantics: the rulebook ({@link RulebookEngine}) on
 * sorted maps. The engine behind {@code Kv.open(":memory:")} when no other engine claims it.
 * Nothing survives {@link #close()}. Thread-safe.
 */
public final class MemoryEngine extends RulebookEngine {
  private MemoryEngine(Duration queuePoll) {
    super(new MemoryStorage(), "memory", queuePoll);
  }

  /** A new, empty database. */
  public static MemoryEngine open() {
    return new MemoryEngine(LeasedQueue.DEFAULT_POLL);
  }

  /**
   * A new, empty database whose idle queue listeners look again every {@code queuePoll} when
   * nothing wakes them (every enqueue, retry and release does; docs/queues.md §3).
   *
   * @throws dev.kvasir.base.KvArgumentException for a poll shorter than a millisecond
   */
  public static MemoryEngine open(Duration queuePoll) {
    return new MemoryEngine(queuePoll);
  }

  /** Reads and commits touch only maps in memory, each in microseconds. */
  @Override
  public boolean readsWithoutWaiting() {
    return true;
  }

  @Override
  public boolean writesWithoutWaiting() {
    return true;
  }
}
