package dev.kvasir.engine;

import dev.kvasir.base.KvClosedException;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.value.EncodedValue;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Delivery with leases, for every engine (docs/queues.md §3): a taken message runs under a
 * short lease that this process renews while its handler runs; a message whose lease ran out
 * (its process died) is a failed delivery, which {@link QueueRules} turns into a retry or a
 * dead letter. Deno never renews, so its long handlers are delivered twice; Kvasir's are not.
 * Thread-safe.
 */
public final class LeasedQueue {
  /** How long a running message stays taken without a renewal. */
  public static final long LEASE_MS = 10_000;
  private static final long RENEW_EVERY_MS = 3_000;
  private static final long CLEANUP_EVERY_MS = 5_000;
  /**
   * Messages that become due, and requeues in other processes, wake nobody: look at least
   * this often.
   */
  private static final long POLL_MS = 1_000;

  private final QueueStore store;
  private final ScheduledExecutorService timer;
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean listening = new AtomicBoolean();

  /** Delivers the messages of {@code store}; lease work runs on {@code timer}. */
  public LeasedQueue(QueueStore store, ScheduledExecutorService timer) {
    this.store = store;
    this.timer = timer;
  }

  /** Puts back the messages of listeners that died before this process started. */
  public void recoverExpiredLeases() {
    timer.execute(this::requeueExpiredLeases);
  }

  /**
   * Waits for the next due message and takes it.
   *
   * @return the message, or {@code null} once the engine is closed
   */
  public DequeuedMessage dequeueNext() throws InterruptedException {
    if (listening.compareAndSet(false, true)) {
      timer.scheduleWithFixedDelay(this::renewLeases, RENEW_EVERY_MS, RENEW_EVERY_MS,
          TimeUnit.MILLISECONDS);
      timer.scheduleWithFixedDelay(this::requeueExpiredLeases, 0,
          CLEANUP_EVERY_MS, TimeUnit.MILLISECONDS);
    }
    while (true) {
      if (store.isClosed()) {
        return null;
      }
      long seen = store.signal().count();
      long now = System.currentTimeMillis();
      QueueStore.Take take;
      try {
        take = store.take(now, now + LEASE_MS);
      } catch (KvClosedException e) {
        return null;
      } catch (RuntimeException e) {
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while waiting for a queue message");
        }
        throw e;
      }
      if (take.message() != null) {
        running.add(take.message().id());
        return new Delivery(take.message());
      }
      if (take.nextDueMs() > now) {
        store.signal().await(seen, Math.min(take.nextDueMs() - now, POLL_MS));
      }
    }
  }

  private void renewLeases() {
    if (running.isEmpty() || store.isClosed()) {
      return;
    }
    try {
      store.renew(List.copyOf(running), System.currentTimeMillis() + LEASE_MS);
    } catch (RuntimeException e) {
      // The next renewal tries again; a lease may lapse and the message be redelivered.
    }
  }

  private void requeueExpiredLeases() {
    if (store.isClosed()) {
      return;
    }
    try {
      long now = System.currentTimeMillis();
      for (String id : store.expiredLeases(now)) {
        if (!running.contains(id)) {
          store.failed(id, now);
        }
      }
    } catch (RuntimeException e) {
      // Tried again at the next cleanup.
    }
  }

  private final class Delivery implements DequeuedMessage {
    private final QueuedMessage message;
    private final AtomicBoolean finished = new AtomicBoolean();

    Delivery(QueuedMessage message) {
      this.message = message;
    }

    @Override
    public EncodedValue payload() {
      return message.payload();
    }

    @Override
    public void finish(boolean success) {
      if (!finished.compareAndSet(false, true)) {
        throw new IllegalStateException("queue message already finished");
      }
      try {
        if (success) {
          store.succeeded(message.id());
        } else {
          store.failed(message.id(), -1);
        }
      } finally {
        running.remove(message.id());
      }
    }
  }
}
