package dev.kvasir.memory;

import dev.kvasir.engine.RulebookEngine;

/**
 * An in-process engine with Deno KV's full semantics: the rulebook ({@link RulebookEngine}) on
 * sorted maps. The engine behind {@code Kv.open(":memory:")} when no other engine claims it.
 * Nothing survives {@link #close()}. Thread-safe.
 */
public final class MemoryEngine extends RulebookEngine {
  private MemoryEngine() {
    super(new MemoryStorage(), "memory");
  }

  /** A new, empty database. */
  public static MemoryEngine open() {
    return new MemoryEngine();
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
