package dev.kvasir.server;

import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue delivery to remote listeners, the server's side of Kvasir's extension of KV Connect
 * (docs/kv-connect.md §10). A client's long poll takes a message from the engine, which holds
 * it running under its own lease (renewed while this server lives); the client then holds it
 * under a client lease that it renews. A client that goes away stops renewing: once its lease
 * runs out the delivery counts as failed, and the engine's rules retry it per its backoff
 * schedule or write its dead letters, as for an embedded listener that failed. A message taken
 * for a poll whose client was gone before the answer went out waits here for the next poll; one
 * no poll comes for, and the messages held when the server stops, are given back to the engine
 * with no attempt counted, since no handler failed them. Thread-safe.
 */
final class QueueGateway implements AutoCloseable {
  /** The longest a poll is held. */
  static final Duration LONGEST_POLL = Duration.ofSeconds(25);
  private static final Logger LOG = LoggerFactory.getLogger(QueueGateway.class);
  /** Polls wait for the engine in rounds this long, so that closing interrupts no take. */
  private static final Duration ROUND = Duration.ofSeconds(1);

  /** A message handed to a client (or waiting for one), until its lease runs out. */
  private static final class Held {
    final DequeuedMessage message;
    volatile long untilMs;

    Held(DequeuedMessage message, long untilMs) {
      this.message = message;
      this.untilMs = untilMs;
    }
  }

  /** What a poll hands its client. */
  record Lease(String id, DequeuedMessage message, Duration lasts) {}

  /** A client's poll, which the client may cancel (it gave up waiting). */
  private static final class Poll {
    final long startedMs = System.currentTimeMillis();
    volatile boolean cancelled;
    volatile Lease lease;
  }

  /** How long a poll is remembered for a late cancellation. */
  private static final long REMEMBER_POLLS_MS = 120_000;

  private final KvEngine engine;
  private final Duration lease;
  private final int maxPolls;
  private final Semaphore pollSlots;
  private final ExecutorService pollers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "kvasir-queue-poll");
    t.setDaemon(true);
    return t;
  });
  private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(
      r -> {
        Thread t = new Thread(r, "kvasir-queue-leases");
        t.setDaemon(true);
        return t;
      });
  private final Map<String, Held> leased = new ConcurrentHashMap<>();
  private final ConcurrentLinkedDeque<Held> unclaimed = new ConcurrentLinkedDeque<>();
  private final Map<String, Poll> polls = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** Leases messages from {@code engine} to clients for {@code lease} at a time. */
  QueueGateway(KvEngine engine, Duration lease, int maxPolls) {
    this.engine = engine;
    this.lease = lease;
    this.maxPolls = maxPolls;
    this.pollSlots = new Semaphore(maxPolls);
    long every = Math.max(100, Math.min(1_000, lease.toMillis() / 10));
    reaper.scheduleWithFixedDelay(this::reap, every, every, TimeUnit.MILLISECONDS);
  }

  /**
   * A message taken within {@code wait} (at most {@link #LONGEST_POLL}), or null; waits on a
   * thread of its own, so the caller returns at once. {@code pollId} names the poll for {@link
   * #cancel}; a blank one cannot be cancelled.
   *
   * @return null when as many polls as allowed are waiting already
   */
  CompletableFuture<Lease> next(Duration wait, String pollId) {
    if (!pollSlots.tryAcquire()) {
      return null;
    }
    Poll poll = pollId.isBlank() ? new Poll() : polls.computeIfAbsent(pollId, id -> new Poll());
    long deadline = System.nanoTime()
        + (wait.compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : wait).toNanos();
    CompletableFuture<Lease> answer = new CompletableFuture<>();
    try {
      pollers.execute(() -> {
        Lease taken = null;
        Throwable failure = null;
        try {
          taken = take(poll, deadline);
        } catch (Throwable e) {
          failure = e;
        } finally {
          // Free before the answer leaves (completing sends it): a listener's next poll, sent
          // as soon as it has the answer, must not find its own poll still counted (429).
          pollSlots.release();
        }
        if (failure != null) {
          answer.completeExceptionally(failure);
        } else {
          answer.complete(taken);
        }
      });
    } catch (RuntimeException e) { // closed
      pollSlots.release();
      answer.complete(null);
    }
    return answer;
  }

  private Lease take(Poll poll, long deadline) throws InterruptedException {
    while (!closed && !poll.cancelled) {
      Held waiting = unclaimed.poll();
      DequeuedMessage m = waiting != null ? waiting.message
          : engine.dequeueNext(shorter(ROUND, deadline));
      if (m != null) {
        String id = UUID.randomUUID().toString();
        Lease taken = new Lease(id, m, lease);
        leased.put(id, new Held(m, System.currentTimeMillis() + lease.toMillis()));
        poll.lease = taken;
        if (poll.cancelled) { // cancelled meanwhile: the next poll gets it
          unclaimed(taken);
          return null;
        }
        return taken;
      }
      if (System.nanoTime() >= deadline) {
        break;
      }
    }
    return null;
  }

  /**
   * The client gave up on poll {@code pollId} and handles nothing it brings: a waiting poll
   * ends, and a message it took goes to the next poll, no failure counted.
   */
  void cancel(String pollId) {
    Poll poll = polls.computeIfAbsent(pollId, id -> new Poll()); // may come before the poll
    poll.cancelled = true;
    Lease taken = poll.lease;
    if (taken != null) {
      unclaimed(taken);
    }
  }

  private static Duration shorter(Duration round, long deadlineNanos) {
    long left = Math.max(1, deadlineNanos - System.nanoTime());
    return Duration.ofNanos(Math.min(round.toNanos(), left));
  }

  /** The client never got {@code lease} (its poll went away): the next poll gets the message. */
  void unclaimed(Lease lease) {
    Held h = leased.remove(lease.id());
    if (h != null) {
      h.untilMs = System.currentTimeMillis() + this.lease.toMillis();
      unclaimed.addFirst(h);
    }
  }

  /** Extends the leases {@code ids}; returns those no longer held. */
  List<String> renew(List<String> ids) {
    long until = System.currentTimeMillis() + lease.toMillis();
    List<String> lost = new ArrayList<>();
    for (String id : ids) {
      Held h = leased.get(id);
      if (h == null) {
        lost.add(id);
      } else {
        h.untilMs = until;
      }
    }
    return lost;
  }

  /**
   * Ends the delivery {@code id}: handled, failed, or given back unhandled ({@code released},
   * which overrides {@code success}); false if its lease was not held any more.
   */
  boolean finish(String id, boolean success, boolean released) {
    Held h = leased.remove(id);
    if (h == null) {
      return false;
    }
    if (released) {
      h.message.release();
    } else {
      h.message.finish(success);
    }
    return true;
  }

  /** Messages held by remote listeners now. */
  int leasedNow() {
    return leased.size();
  }

  /** The most polls that may wait at once. */
  int maxPolls() {
    return maxPolls;
  }

  /**
   * Deliveries whose client stopped renewing fail; unclaimed ones nobody polled for go back to
   * the engine (another listener may take them), no attempt counted.
   */
  private void reap() {
    long now = System.currentTimeMillis();
    polls.values().removeIf(p -> now - p.startedMs > REMEMBER_POLLS_MS);
    int expired = 0;
    for (Iterator<Map.Entry<String, Held>> it = leased.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Held> e = it.next();
      if (e.getValue().untilMs <= now && leased.remove(e.getKey(), e.getValue())) {
        expired += fail(e.getValue());
      }
    }
    for (Iterator<Held> it = unclaimed.iterator(); it.hasNext(); ) {
      Held h = it.next();
      if (h.untilMs <= now && unclaimed.remove(h)) {
        release(h);
      }
    }
    if (expired > 0) {
      LOG.info("{} queue messages whose remote listener went away (its lease ran out) are"
          + " retried or dead-lettered", expired);
    }
  }

  private static int fail(Held h) {
    try {
      h.message.finish(false);
      return 1;
    } catch (RuntimeException e) {
      // The engine closed or failed: its own lease runs out and it retries the message.
      LOG.debug("cannot fail a queue delivery now: {}", e.getMessage());
      return 0;
    }
  }

  private static int release(Held h) {
    try {
      h.message.release();
      return 1;
    } catch (RuntimeException e) {
      // The engine closed or failed: its own lease runs out, and the delivery counts as failed.
      LOG.debug("cannot give a queue message back now: {}", e.getMessage());
      return 0;
    }
  }

  /**
   * The first step of stopping (docs/operations.md §3): waiting polls end within a second,
   * empty, no poll takes a message any more, and messages taken for polls whose client went
   * away go back to the engine. Deliveries in progress may still be renewed and finished.
   */
  void stopTaking() {
    closed = true;
    for (Held h; (h = unclaimed.poll()) != null; ) {
      release(h);
    }
  }

  /**
   * Stops for good: the deliveries still held go back to the engine, due again at once with no
   * attempt counted, since their handlers have not failed; a client that reports one later is
   * told it is no longer held (and the message is delivered again).
   */
  @Override
  public void close() {
    stopTaking();
    pollers.shutdown();
    reaper.shutdownNow();
    int held = 0;
    for (String id : List.copyOf(leased.keySet())) {
      Held h = leased.remove(id);
      held += h == null ? 0 : release(h);
    }
    for (Held h; (h = unclaimed.poll()) != null; ) { // taken by a poll that ended meanwhile
      held += release(h);
    }
    if (held > 0) {
      LOG.info("{} queue messages held for remote listeners as the server stopped are due"
          + " again, no attempt counted", held);
    }
  }
}
