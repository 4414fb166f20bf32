package dev.kvasir.sqlite;

import dev.kvasir.spi.KeyNotifier;
import java.util.HashMap;
import java.util.Map;

/**
 * What every engine open on one file in this JVM shares, so that a write through one {@code Kv}
 * wakes watchers and queue listeners of another (Deno shares them per canonical path too,
 * reference §3.2). Counted references; in-memory databases get a private instance.
 */
final class Shared {
  private static final Map<String, Shared> BY_PATH = new HashMap<>();

  final KeyNotifier notifier = new KeyNotifier();
  private final String path;
  private int references;
  private long queueSignals;

  private Shared(String path) {
    this.path = path;
  }

  static Shared forPath(String canonicalPath) {
    if (canonicalPath == null) {
      Shared s = new Shared(null);
      s.references = 1;
      return s;
    }
    synchronized (BY_PATH) {
      Shared s = BY_PATH.computeIfAbsent(canonicalPath, Shared::new);
      s.references++;
      return s;
    }
  }

  /** Wakes queue listeners: a message may have become available. */
  synchronized void signalQueue() {
    queueSignals++;
    notifyAll();
  }

  /** Waits for {@link #signalQueue()} or the timeout; returns early if signalled since {@code seen}. */
  synchronized void awaitQueue(long seen, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (queueSignals == seen) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return;
      }
      wait(left);
    }
  }

  synchronized long queueSignals() {
    return queueSignals;
  }

  void release() {
    if (path == null) {
      notifier.close();
      return;
    }
    synchronized (BY_PATH) {
      if (--references == 0) {
        BY_PATH.remove(path);
        notifier.close();
      }
    }
  }
}
