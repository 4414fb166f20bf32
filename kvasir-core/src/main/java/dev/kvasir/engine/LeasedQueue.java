package dev.kvasir.engine;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.MeterSink;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.QueueDepth;
import dev.kvasir.value.EncodedValue;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
   * How long a waiting listener goes without looking, unless its engine says otherwise. Every
   * enqueue, retry and release, and every commit of another process or instance the engine
   * hears of, wakes the listeners (docs/queues.md §3); the poll only bounds what a missed
   * wake-up costs.
   */
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(1);
  /** The longest wait asked for that is taken literally: a year, "for ever" in practice. */
  private static final long MAX_WAIT_MS = 365L * 24 * 3600 * 1000;

  /** How often the queue's size is read for metrics, once meters are bound. */
  private static final long STATS_EVERY_MS = 5_000;
  private static final Logger LOG = LoggerFactory.getLogger(LeasedQueue.class);

  private final QueueStore store;
  private final ScheduledExecutorService timer;
  private final long pollMs;
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean listening = new AtomicBoolean();
  private final AtomicBoolean metered = new AtomicBoolean();
  private volatile QueueStore.Stats stats = new QueueStore.Stats(0, 0, 0, Long.MAX_VALUE);
  private volatile LongConsumer succeeded = n -> { };
  private volatile LongConsumer failed = n -> { };
  private volatile LongConsumer leasesEnded = n -> { };
  private volatile LongConsumer released = n -> { };

  /**
   * Delivers the messages of {@code store}; lease work runs on {@code timer}. A listener with
   * nothing due waits until the store's signal moves, a waiting message is due, or {@code poll}
   * has passed.
   *
   * @throws KvArgumentException if {@code poll} is shorter than a millisecond
   */
  public LeasedQueue(QueueStore store, ScheduledExecutorService timer, Duration poll) {
    this.store = store;
    this.timer = timer;
    checkPoll("poll", poll);
    // Longer than a year is a year: Duration's longest overflows a long of milliseconds.
    this.pollMs = poll.compareTo(Duration.ofMillis(MAX_WAIT_MS)) > 0 ? MAX_WAIT_MS
        : poll.toMillis();
  }

  /**
   * Returns {@code poll} if it is at least a millisecond.
   *
   * @throws KvArgumentException naming {@code setting} otherwise
   */
  public static Duration checkPoll(String setting, Duration poll) {
    if (Objects.requireNonNull(poll, setting).compareTo(Duration.ofMillis(1)) < 0) {
      // Zero, the one whole number of milliseconds an option can give here, reads as such.
      throw new KvArgumentException(setting + " must be at least 1 ms: received "
          + (poll.isZero() ? "0 ms" : poll));
    }
    return poll;
  }

  /** Puts back the messages of listeners that died before this process started. */
  public void recoverExpiredLeases() {
    timer.execute(this::requeueExpiredLeases);
  }

  /**
   * Waits up to {@code timeout} for the next due message and takes it.
   *
   * @return the message, or {@code null} if none was due in time or the engine is closed
   */
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    long deadline = System.currentTimeMillis() + Math.min(timeout.toMillis(), MAX_WAIT_MS);
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
      long now = store.nowMs();
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
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return null;
      }
      if (take.nextDueMs() > now) {
        store.signal().await(seen, Math.min(Math.min(take.nextDueMs() - now, pollMs), left));
      }
    }
  }

  /**
   * Reports the queue to {@code sink} (docs/operations.md §5): messages by state (read every
   * 5 s), how long the oldest due message has waited, and deliveries by outcome.
   */
  public void bindMeters(MeterSink sink) {
    String messages = "kvasir.engine.queue.messages";
    String what = "Queue messages: due, waiting for a later time, or being delivered";
    sink.gauge(messages, what, () -> stats.ready(), "state", "ready");
    sink.gauge(messages, what, () -> stats.delayed(), "state", "delayed");
    sink.gauge(messages, what, () -> stats.running(), "state", "running");
    sink.gauge("kvasir.engine.queue.oldest.ready.seconds",
        "How long the oldest due message has waited (0 when none is due)", this::oldestAge);
    String deliveries = "kvasir.engine.queue.deliveries";
    String ended = "Deliveries by outcome; lease_ended: the listener went away; released: given"
        + " back unhandled";
    succeeded = succeeded.andThen(sink.counter(deliveries, ended, "outcome", "succeeded"));
    failed = failed.andThen(sink.counter(deliveries, ended, "outcome", "failed"));
    leasesEnded = leasesEnded.andThen(sink.counter(deliveries, ended, "outcome", "lease_ended"));
    released = released.andThen(sink.counter(deliveries, ended, "outcome", "released"));
    if (metered.compareAndSet(false, true)) {
      timer.scheduleWithFixedDelay(this::readStats, 0, STATS_EVERY_MS, TimeUnit.MILLISECONDS);
    }
  }

  /** The queue's size now, read from its store rather than from the figures kept for meters. */
  public QueueDepth depth() {
    long now = store.nowMs();
    QueueStore.Stats s = store.stats(now);
    return new QueueDepth(s.ready(), s.delayed(), s.running(), oldestWait(s, now));
  }

  private double oldestAge() {
    return oldestWait(stats, store.nowMs()).toMillis() / 1000.0;
  }

  /** How long the oldest message due in {@code s} has waited at {@code nowMs}; zero for none. */
  private static Duration oldestWait(QueueStore.Stats s, long nowMs) {
    long oldest = s.oldestReadyMs();
    return oldest == Long.MAX_VALUE ? Duration.ZERO
        : Duration.ofMillis(Math.max(0, nowMs - oldest));
  }

  private void readStats() {
    if (store.isClosed()) {
      return;
    }
    try {
      stats = store.stats(store.nowMs());
    } catch (RuntimeException e) {
      LOG.debug("cannot read the queue's size for metrics: {}", e.getMessage());
    }
  }

  private void renewLeases() {
    if (running.isEmpty() || store.isClosed()) {
      return;
    }
    try {
      store.renew(List.copyOf(running), store.nowMs() + LEASE_MS);
    } catch (RuntimeException e) {
      // The next renewal tries again; a lease may lapse and the message be redelivered.
      LOG.warn("cannot renew the leases of {} queue messages being delivered; a lease that"
          + " runs out lets the message be delivered again: {}", running.size(), e.getMessage());
    }
  }

  private void requeueExpiredLeases() {
    if (store.isClosed()) {
      return;
    }
    try {
      long now = store.nowMs();
      int requeued = 0;
      for (String id : store.expiredLeases(now)) {
        if (!running.contains(id)) {
          store.failed(id, now);
          requeued++;
        }
      }
      if (requeued > 0) {
        leasesEnded.accept(requeued);
        LOG.info("{} queue messages whose listener went away (its lease ran out) are retried"
            + " or dead-lettered", requeued);
      }
    } catch (RuntimeException e) {
      LOG.debug("cannot look for ended queue leases now; looking again in {} ms: {}",
          CLEANUP_EVERY_MS, e.getMessage());
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
      end(() -> {
        if (success) {
          store.succeeded(message.id());
          succeeded.accept(1);
        } else {
          store.failed(message.id(), -1);
          failed.accept(1);
        }
      });
    }

    @Override
    public void release() {
      end(() -> {
        store.released(message.id());
        released.accept(1);
      });
    }

    /** Records the delivery's end, once; the message is no longer this process's to renew. */
    private void end(Runnable outcome) {
      if (!finished.compareAndSet(false, true)) {
        throw new IllegalStateException("queue message already finished");
      }
      try {
        outcome.run();
      } finally {
        running.remove(message.id());
      }
    }
  }
}
