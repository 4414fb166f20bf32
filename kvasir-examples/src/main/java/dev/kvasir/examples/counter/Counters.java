package dev.kvasir.examples.counter;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.value.KvU64;
import java.util.concurrent.CompletableFuture;

/**
 * Named counters as Deno keeps them: a {@link KvU64} under {@code ["counters", name]}, changed
 * by {@code sum}, which adds on the database's side, so concurrent increments never need a
 * read or a retry. A negative sum subtracts (and would wrap below zero, so a counter that
 * must stay positive is decremented only after an increment); {@code max} keeps a peak.
 */
public final class Counters {
  private final Kv kv;

  public Counters(Kv kv) {
    this.kv = kv;
  }

  public void increment(String name) {
    kv.sum(key(name), 1);
  }

  public void decrement(String name) {
    kv.sum(key(name), -1);
  }

  /**
   * Increments without waiting: many increments can be outstanding at once, and the engine
   * commits them together (SQLite's group commit, PostgreSQL's shared transaction, one HTTP/2
   * connection to a server).
   */
  public CompletableFuture<Void> incrementAsync(String name) {
    return kv.async().sum(key(name), 1).thenAccept(result -> { });
  }

  /** Keeps under {@code ["peaks", name]} the largest value ever given. */
  public void recordPeak(String name, long value) {
    kv.max(KvKey.of("peaks", name), value);
  }

  /** The counter's value; 0 if it was never incremented. */
  public long get(String name) {
    KvU64 value = kv.get(key(name)).value(KvU64.class);
    return value == null ? 0 : value.unsignedBits();
  }

  /** The peak recorded; 0 if none was. */
  public long peak(String name) {
    KvU64 value = kv.get(KvKey.of("peaks", name)).value(KvU64.class);
    return value == null ? 0 : value.unsignedBits();
  }

  private static KvKey key(String name) {
    return KvKey.of("counters", name);
  }
}
