package dev.kvasir.engine;

import dev.kvasir.spi.RawKey;
import java.util.List;
import java.util.function.Consumer;

/**
 * What happens to a delivery that failed (docs/queues.md §3), for every engine: while backoff
 * intervals are left, the message waits the first of them and is tried again with the rest;
 * then its payload goes to each of its {@code keysIfUndelivered} (no expiry, one new version),
 * and the message is gone. A lease that ran out counts as a failed delivery. A delivery given
 * back unhandled (a server that stops, docs/kv-connect.md §10) counts as no attempt at all.
 */
public final class QueueRules {
  private QueueRules() {}

  /**
   * Records a failed delivery of running message {@code id} in {@code tx}. Once the transaction
   * committed, a retry runs {@code wakeListeners} and a dead letter tells {@code changed} the
   * keys it wrote.
   *
   * @param leaseEndedBeforeMs −1 for a listener's failure; else only a message whose lease
   *     ended at or before this time counts (the message of a listener that went away)
   */
  public static <X extends Exception> void failed(QueueTx<X> tx, String id,
      long leaseEndedBeforeMs, long nowMs, Runnable wakeListeners,
      Consumer<List<RawKey>> changed) throws X {
    QueuedMessage m = tx.claimRunning(id, leaseEndedBeforeMs);
    if (m == null) {
      return; // handled elsewhere, e.g. by another instance after the lease ran out
    }
    List<Integer> backoff = m.backoff();
    if (!backoff.isEmpty()) {
      tx.enqueue(new QueuedMessage(m.id(), nowMs + backoff.get(0), m.payload(),
          backoff.subList(1, backoff.size()), m.keysIfUndelivered()));
      tx.afterCommit(wakeListeners);
    } else if (!m.keysIfUndelivered().isEmpty()) {
      long version = tx.nextVersion(Versions.commitStep());
      for (RawKey key : m.keysIfUndelivered()) {
        tx.put(key, m.payload(), version, Expiry.NEVER);
      }
      tx.afterCommit(() -> changed.accept(m.keysIfUndelivered()));
    }
  }

  /**
   * Puts running message {@code id} back in {@code tx}, due at {@code nowMs} with its backoff
   * schedule as it was: its listener gave it back without handling it, so no attempt is
   * counted. Once the transaction committed, {@code wakeListeners} runs.
   */
  public static <X extends Exception> void released(QueueTx<X> tx, String id, long nowMs,
      Runnable wakeListeners) throws X {
    QueuedMessage m = tx.claimRunning(id, -1);
    if (m == null) {
      return; // handled elsewhere, e.g. by another instance after the lease ran out
    }
    tx.enqueue(new QueuedMessage(m.id(), nowMs, m.payload(), m.backoff(),
        m.keysIfUndelivered()));
    tx.afterCommit(wakeListeners);
  }
}
