package dev.kvasir.engine;

/**
 * A write transaction that can also hand back a running queue message, for {@link QueueRules}.
 *
 * @param <X> what the storage throws
 */
public interface QueueTx<X extends Exception> extends WriteTx<X> {
  /**
   * Removes message {@code id} from the running ones and returns it, or returns null if it is
   * not running (another listener or instance handled it). With {@code leaseEndedBeforeMs} ≥ 0,
   * only a message whose lease ended at or before that time is taken.
   */
  QueuedMessage claimRunning(String id, long leaseEndedBeforeMs) throws X;
}
