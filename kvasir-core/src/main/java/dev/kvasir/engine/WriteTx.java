package dev.kvasir.engine;

import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The storage primitives of one write transaction, on which {@link Commit} and {@link
 * QueueRules} carry out Deno's rules (docs/architecture.md). An engine implements them on its
 * storage; everything in one transaction becomes visible together or not at all.
 *
 * @param <X> what the storage throws, e.g. {@code java.sql.SQLException}
 */
public interface WriteTx<X extends Exception> {
  /** The entry at {@code key} if it exists and has not expired at {@code nowMs}, else null. */
  StoredValue get(RawKey key, long nowMs) throws X;

  /**
   * The live entries at {@code keys}, in order, null where none: what checks compare. An
   * engine that can read several keys at once overrides this.
   */
  default List<StoredValue> getAll(List<RawKey> keys, long nowMs) throws X {
    List<StoredValue> out = new ArrayList<>(keys.size());
    for (RawKey key : keys) {
      out.add(get(key, nowMs));
    }
    return out;
  }

  /** Upserts an entry; {@code expireAtMs} is {@link Expiry#NEVER} or epoch milliseconds. */
  void put(RawKey key, EncodedValue value, long version, long expireAtMs) throws X;

  /** Removes the entry at {@code key}, if any. */
  void delete(RawKey key) throws X;

  /** Moves the database version up by {@code step} and returns the new version. */
  long nextVersion(int step) throws X;

  /**
   * The version of the commit recorded under idempotency key {@code id} within the retention
   * ({@link dev.kvasir.spi.AtomicWrite#IDEMPOTENCY_RETENTION}), or −1.
   */
  long recordedCommit(String id) throws X;

  /** Records that the commit with {@code version} had idempotency key {@code id}. */
  void recordCommit(String id, long version, long nowMs) throws X;

  /** Adds a message to the queue (waiting, due at its {@code dueMs}). */
  void enqueue(QueuedMessage message) throws X;

  /**
   * Runs {@code action} once this transaction committed, never if it rolled back:
   * notifications must not announce a change that did not happen.
   */
  void afterCommit(Runnable action);
}
