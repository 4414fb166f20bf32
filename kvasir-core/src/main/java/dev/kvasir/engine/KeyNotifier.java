package dev.kvasir.engine;

import dev.kvasir.spi.RawKey;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * In-process change notification for watches: an engine calls {@link #changed} after each commit
 * with the keys it wrote, and every {@link Subscription} on one of them wakes up. A subscription
 * remembers a change that happened while nobody waited, so a change between a watcher's read and
 * its wait is never lost. Thread-safe.
 */
public final class KeyNotifier {
  /** A notifier without subscriptions. */
  public KeyNotifier() {}

  private final ConcurrentHashMap<RawKey, Set<Subscription>> byKey = new ConcurrentHashMap<>();
  private final Set<Subscription> all = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** Subscribes to changes of {@code keys}. */
  public Subscription subscribe(Collection<RawKey> keys) {
    Subscription s = new Subscription(List.copyOf(keys));
    all.add(s);
    for (RawKey k : s.keys) {
      byKey.computeIfAbsent(k, x -> ConcurrentHashMap.newKeySet()).add(s);
    }
    if (closed) {
      s.close();
    }
    return s;
  }

  /** Wakes the subscriptions of these keys. */
  public void changed(Collection<RawKey> keys) {
    if (all.isEmpty()) {
      return;
    }
    for (RawKey k : keys) {
      Set<Subscription> subs = byKey.get(k);
      if (subs != null) {
        subs.forEach(Subscription::signal);
      }
    }
  }

  /**
   * Wakes the subscriptions of every watched key that {@code test} accepts, for changes known
   * only by a digest of their keys (e.g. from another process).
   */
  public void changedWhere(Predicate<RawKey> test) {
    for (Map.Entry<RawKey, Set<Subscription>> e : byKey.entrySet()) {
      if (test.test(e.getKey())) {
        e.getValue().forEach(Subscription::signal);
      }
    }
  }

  /** Whether anyone is subscribed. */
  public boolean hasSubscriptions() {
    return !all.isEmpty();
  }

  /** Wakes every subscription, e.g. when another process changed unknown keys. */
  public void changedAll() {
    all.forEach(Subscription::signal);
  }

  /** Ends every subscription, now and later. */
  public void close() {
    closed = true;
    all.forEach(Subscription::close);
  }

  /** One watcher's interest in some keys. */
  public final class Subscription implements AutoCloseable {
    private final List<RawKey> keys;
    private boolean pending;
    private boolean ended;
    private volatile Runnable listener;

    private Subscription(List<RawKey> keys) {
      this.keys = keys;
    }

    /**
     * Calls {@code listener} after every signal and when the subscription ends, from the
     * signalling thread; at once if a signal is already pending or it ended.
     */
    public void listen(Runnable listener) {
      this.listener = listener;
      boolean now;
      synchronized (this) {
        now = pending || ended;
      }
      if (now) {
        listener.run();
      }
    }

    /** Takes a pending signal without waiting: whether there was one. */
    public synchronized boolean takeChange() {
      boolean was = pending;
      pending = false;
      return was;
    }

    /** Whether the subscription or the notifier was closed. */
    public synchronized boolean isEnded() {
      return ended;
    }

    /**
     * Waits for a change signalled since the last call (or since subscribing).
     *
     * @return {@code false} once the subscription or the notifier is closed
     */
    public synchronized boolean awaitChange() throws InterruptedException {
      while (!pending && !ended) {
        wait();
      }
      pending = false;
      return !ended;
    }

    private void signal() {
      synchronized (this) {
        pending = true;
        notifyAll();
      }
      tellListener();
    }

    private void tellListener() {
      Runnable l = listener;
      if (l != null) {
        l.run();
      }
    }

    @Override
    public void close() {
      synchronized (this) {
        ended = true;
        notifyAll();
      }
      tellListener();
      all.remove(this);
      for (RawKey k : keys) {
        byKey.computeIfPresent(k, (x, subs) -> {
          subs.remove(this);
          return subs.isEmpty() ? null : subs;
        });
      }
    }
  }
}
