package dev.kvasir.engine;

import java.util.Collection;
import java.util.List;

/**
 * The queue operations an engine supplies to {@link LeasedQueue}, each one transaction of its
 * own. The engine wakes its listeners through {@link #signal()} whenever a message may have
 * become available (an enqueue, a retry, another process's commit).
 */
public interface QueueStore {
  /** A taken message, or when the next waiting one is due. */
  record Take(QueuedMessage message, long nextDueMs) {}

  /**
   * How many messages are due, waiting for a later time and running, and when the oldest due
   * one became due ({@code Long.MAX_VALUE} for none).
   */
  record Stats(long ready, long delayed, long running, long oldestReadyMs) {}

  /**
   * Now, in epoch milliseconds, by the clock the store's due times and leases are kept by:
   * this machine's, or for a store that several machines share, one they agree on (the
   * PostgreSQL server's, docs/postgres.md §11). Waits are measured on this machine's clock.
   */
  default long nowMs() {
    return System.currentTimeMillis();
  }

  /**
   * Moves the first message due at {@code nowMs} to the running ones with a lease until {@code
   * leaseUntilMs} and returns it; if none is due, returns when the first waiting message is
   * ({@code Long.MAX_VALUE} for none).
   */
  Take take(long nowMs, long leaseUntilMs);

  /** Ends a delivery that succeeded: the running message is gone. */
  void succeeded(String id);

  /**
   * Applies {@link QueueRules#failed} to running message {@code id} in a write transaction,
   * waking listeners after a retry and watchers after a dead letter.
   */
  void failed(String id, long leaseEndedBeforeMs);

  /**
   * Applies {@link QueueRules#released} to running message {@code id} in a write transaction:
   * due again at once, no attempt counted.
   */
  void released(String id);

  /** Extends the leases of running messages {@code ids} to {@code untilMs}. */
  void renew(Collection<String> ids, long untilMs);

  /** The running messages whose lease ended at or before {@code nowMs}. */
  List<String> expiredLeases(long nowMs);

  /** The queue's size at {@code nowMs}, for metrics. */
  Stats stats(long nowMs);

  /** Raised whenever a message may have become available. */
  Signal signal();

  /** Whether the engine is closed; listeners then get {@code null}. */
  boolean isClosed();
}
