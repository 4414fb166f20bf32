package dev.kvasir.server;

import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue delivery to remote listeners, the server's side of Kvasir's extension of KV Connect
 * (docs/kv-connect.md §10). A client's long poll waits here for a message, which a taker
 * thread takes from the engine and hands to the oldest waiting poll; the engine holds it
 * running under its own lease (renewed while this server lives), and the client then holds it
 * under a client lease that it renews. A client that goes away stops renewing: once its lease
 * runs out the delivery counts as failed, and the engine's rules retry it per its backoff
 * schedule or write its dead letters, as for an embedded listener that failed. A message taken
 * for a poll whose client was gone before the answer went out goes to another waiting poll or
 * the next one; one no poll comes for, and the messages held when the server stops, are given
 * back to the engine with no attempt counted, since no handler failed them. Thread-safe.
 *
 * <p>Takers wait in the engine for as long as the polls waiting, so the engine's own queue poll
 * (docs/queues.md §3) bounds how often an idle server asks its storage. A poll that ends early
 * (its client cancels it, its time runs out, the server stops) is answered at once, but a wait
 * in the engine cannot be cut short without interrupting a take half-way (KvEngine); its taker
 * goes on serving the polls that wait, and gives back a message it takes when none waits.
 */
final class QueueGateway implements AutoCloseable {
  /** The longest a poll is held. */
  static final Duration LONGEST_POLL = Duration.ofSeconds(25);
  /**
   * The shortest a poll is held: time for a taker to start and look, so that a poll of no time
   * still takes a message that is due.
   */
  static final Duration SHORTEST_POLL = Duration.ofMillis(100);
  private static final Logger LOG = LoggerFactory.getLogger(QueueGateway.class);

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
    /** When its time is up, by {@link System#nanoTime}. */
    final long deadlineNanos;
    final CompletableFuture<Lease> answer = new CompletableFuture<>();
    volatile boolean cancelled;
    volatile Lease lease;
    /** Ends the poll when its time is up; null until set, just after the poll waits. */
    volatile Future<?> timeout;

    Poll(long deadlineNanos) {
      this.deadlineNanos = deadlineNanos;
    }

    void stopTimer() {
      Future<?> t = timeout;
      if (t != null) {
        t.cancel(false);
      }
    }
  }

  /** How long a poll is remembered for a late cancellation. */
  private static final long REMEMBER_POLLS_MS = 120_000;

  private final KvEngine engine;
  private final Duration lease;
  private final int maxPolls;
  private final ExecutorService takers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "kvasir-queue-take");
    t.setDaemon(true);
    return t;
  });
  /** Ends polls whose time is up. */
  private final ScheduledExecutorService timer = daemonScheduler("kvasir-queue-poll-ends");
  /** Ends leases, which asks the engine: kept apart so that a slow engine delays no poll. */
  private final ScheduledExecutorService reaper = daemonScheduler("kvasir-queue-leases");
  private final Map<String, Held> leased = new ConcurrentHashMap<>();
  private final Map<String, Poll> polls = new ConcurrentHashMap<>();
  private final Object lock = new Object();
  /** Polls not answered yet, oldest first; guarded by {@link #lock}. */
  private final ArrayDeque<Poll> waiting = new ArrayDeque<>();
  /** Messages whose poll went away, for the next poll; guarded by {@link #lock}. */
  private final ArrayDeque<Held> unclaimed = new ArrayDeque<>();
  /** Takers started and not ended; guarded by {@link #lock}. */
  private int takersRunning;
  private boolean closed; // guarded by lock

  /** Leases messages from {@code engine} to clients for {@code lease} at a time. */
  QueueGateway(KvEngine engine, Duration lease, int maxPolls) {
    this.engine = engine;
    this.lease = lease;
    this.maxPolls = maxPolls;
    long every = Math.max(100, Math.min(1_000, lease.toMillis() / 10));
    reaper.scheduleWithFixedDelay(this::reap, every, every, TimeUnit.MILLISECONDS);
  }

  private static ScheduledExecutorService daemonScheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * A message taken within {@code wait} (from {@link #SHORTEST_POLL} to {@link #LONGEST_POLL}),
   * or null; the caller returns at once. {@code pollId} names the poll for {@link #cancel}; a
   * blank one cannot be cancelled.
   *
   * @return null when as many polls as allowed are waiting already
   */
  CompletableFuture<Lease> next(Duration wait, String pollId) {
    Duration bounded = wait.compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL
        : wait.compareTo(SHORTEST_POLL) < 0 ? SHORTEST_POLL : wait;
    Poll poll = new Poll(System.nanoTime() + bounded.toNanos());
    if (!pollId.isBlank()) {
      Poll earlier = polls.put(pollId, poll);
      poll.cancelled = earlier != null && earlier.cancelled; // cancelled before it came
    }
    Lease ready = null;
    boolean startTaker = false;
    synchronized (lock) {
      if (closed || poll.cancelled) {
        return CompletableFuture.completedFuture(null);
      }
      Held h = unclaimed.pollFirst();
      if (h != null) {
        ready = lend(h.message);
      } else {
        if (waiting.size() >= maxPolls) {
          return null;
        }
        waiting.addLast(poll);
        if (takersRunning < waiting.size()) {
          takersRunning++;
          startTaker = true;
        }
      }
    }
    if (ready != null) {
      poll.lease = ready;
      return CompletableFuture.completedFuture(ready);
    }
    try {
      poll.timeout = timer.schedule(() -> endWaiting(poll), bounded.toNanos(),
          TimeUnit.NANOSECONDS);
      if (startTaker) {
        takers.execute(this::take);
      }
    } catch (RejectedExecutionException e) { // closed meanwhile: no taker started
      if (startTaker) {
        synchronized (lock) {
          takersRunning--;
        }
      }
      endWaiting(poll);
    }
    return poll.answer;
  }

  /**
   * A taker: waits in the engine for a message and hands it to the oldest waiting poll, for as
   * long as polls wait. Each wait lasts until the last of them would end: ending it early
   * would mean interrupting a take (KvEngine#dequeueNext).
   */
  private void take() {
    boolean counted = true; // in takersRunning
    try {
      while (true) {
        long longest = 0;
        List<Poll> ended = new ArrayList<>();
        boolean stop;
        synchronized (lock) {
          long now = System.nanoTime();
          for (Iterator<Poll> it = waiting.iterator(); it.hasNext(); ) {
            Poll p = it.next();
            long left = p.deadlineNanos - now;
            if (left <= 0) { // its timer may come late: the wait in the engine ended after it
              it.remove();
              ended.add(p);
            }
            longest = Math.max(longest, left);
          }
          stop = closed || waiting.isEmpty();
          if (stop) {
            // In the same hold as the look at the polls: one that comes after it finds this
            // taker gone, and starts one of its own.
            takersRunning--;
            counted = false;
          }
        }
        ended.forEach(this::answerEmpty);
        if (stop) {
          return;
        }
        // The engine counts whole milliseconds and may return up to one early: one more.
        long waitMs = TimeUnit.NANOSECONDS.toMillis(longest + 999_999) + 1;
        DequeuedMessage m = engine.dequeueNext(Duration.ofMillis(waitMs));
        if (m != null && !handToAPoll(m)) {
          // Nobody waits for it now; an embedded listener or another server may. A poll that
          // came while it went back is served on the next turn, which takes it again.
          release(m);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failWaiting(e);
    } finally {
      if (counted) {
        synchronized (lock) {
          takersRunning--;
        }
      }
    }
  }

  /** Answers the oldest waiting poll with {@code m}; false if none waits (or closed). */
  private boolean handToAPoll(DequeuedMessage m) {
    Poll poll;
    Lease lent;
    synchronized (lock) {
      poll = closed ? null : waiting.pollFirst();
      if (poll == null) {
        return false;
      }
      lent = lend(m);
    }
    poll.lease = lent;
    poll.stopTimer();
    poll.answer.complete(lent);
    if (poll.cancelled) { // cancelled as it was answered: the next poll gets the message
      unclaimed(lent);
    }
    return true;
  }

  /** A lease of {@code m} to a client, held from now; call under {@link #lock}. */
  private Lease lend(DequeuedMessage m) {
    String id = UUID.randomUUID().toString();
    leased.put(id, new Held(m, System.currentTimeMillis() + lease.toMillis()));
    return new Lease(id, m, lease);
  }

  /** Ends {@code poll} unanswered (no message, 204) if it still waits. */
  private void endWaiting(Poll poll) {
    boolean waited;
    synchronized (lock) {
      waited = waiting.remove(poll);
    }
    if (waited) {
      answerEmpty(poll);
    }
  }

  private void answerEmpty(Poll poll) {
    poll.stopTimer();
    poll.answer.complete(null);
  }

  /**
   * The engine failed a take, or is closed: every waiting poll gets the failure, which its
   * client retries after a pause (a 503).
   */
  private void failWaiting(RuntimeException e) {
    List<Poll> failed;
    synchronized (lock) {
      failed = new ArrayList<>(waiting);
      waiting.clear();
    }
    for (Poll poll : failed) {
      poll.stopTimer();
      poll.answer.completeExceptionally(e);
    }
  }

  /**
   * The client gave up on poll {@code pollId} and handles nothing it brings: a waiting poll
   * ends, and a message it took goes to the next poll, no failure counted.
   */
  void cancel(String pollId) {
    // It may come before the poll, which then finds it cancelled.
    Poll poll = polls.computeIfAbsent(pollId, id -> new Poll(System.nanoTime()));
    poll.cancelled = true;
    endWaiting(poll);
    Lease taken = poll.lease;
    if (taken != null) {
      unclaimed(taken);
    }
  }

  /**
   * The client never got {@code lease} (its poll went away): a waiting poll gets the message,
   * or else the next one.
   */
  void unclaimed(Lease lease) {
    Held h = leased.remove(lease.id());
    if (h == null) {
      return;
    }
    if (!handToAPoll(h.message)) {
      boolean kept;
      synchronized (lock) {
        kept = !closed;
        if (kept) {
          h.untilMs = System.currentTimeMillis() + this.lease.toMillis();
          unclaimed.addFirst(h);
        }
      }
      if (!kept) {
        release(h.message);
      }
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
    List<Held> unwanted = new ArrayList<>();
    synchronized (lock) {
      unclaimed.removeIf(h -> h.untilMs <= now && unwanted.add(h));
    }
    unwanted.forEach(h -> release(h.message));
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

  private static int release(DequeuedMessage m) {
    try {
      m.release();
      return 1;
    } catch (RuntimeException e) {
      // The engine closed or failed: its own lease runs out, and the delivery counts as failed.
      LOG.debug("cannot give a queue message back now: {}", e.getMessage());
      return 0;
    }
  }

  /**
   * The first step of stopping (docs/operations.md §3): waiting polls end at once, empty, no
   * poll takes a message any more, and messages taken for polls whose client went away go back
   * to the engine. Deliveries in progress may still be renewed and finished.
   */
  void stopTaking() {
    List<Poll> ended;
    List<Held> unwanted;
    synchronized (lock) {
      closed = true;
      ended = new ArrayList<>(waiting);
      waiting.clear();
      unwanted = new ArrayList<>(unclaimed);
      unclaimed.clear();
    }
    ended.forEach(this::answerEmpty);
    unwanted.forEach(h -> release(h.message));
  }

  /**
   * Stops for good: the deliveries still held go back to the engine, due again at once with no
   * attempt counted, since their handlers have not failed; a client that reports one later is
   * told it is no longer held (and the message is delivered again). Takers still waiting in the
   * engine end when it closes, and give back what they take until then.
   */
  @Override
  public void close() {
    stopTaking();
    takers.shutdown();
    timer.shutdownNow();
    reaper.shutdownNow();
    int held = 0;
    for (String id : List.copyOf(leased.keySet())) {
      Held h = leased.remove(id);
      held += h == null ? 0 : release(h.message);
    }
    if (held > 0) {
      LOG.info("{} queue messages held for remote listeners as the server stopped are due"
          + " again, no attempt counted", held);
    }
  }
}
