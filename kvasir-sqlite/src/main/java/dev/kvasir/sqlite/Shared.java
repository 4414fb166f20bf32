package dev.kvasir.sqlite;

import dev.kvasir.engine.KeyNotifier;
import dev.kvasir.engine.Signal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * What every engine open on one file in this JVM shares, so that a write through one {@code Kv}
 * wakes watchers and queue listeners of another (Deno shares them per canonical path too,
 * reference §3.2), and commits of other processes wake them all ({@link ForeignCommits}).
 * Counted references; in-memory databases get a private instance.
 */
final class Shared {
  private static final Map<String, Shared> BY_PATH = new HashMap<>();

  final KeyNotifier notifier = new KeyNotifier();
  private final String path;
  private final ForeignCommits foreign;
  private final Set<Runnable> foreignListeners = new CopyOnWriteArraySet<>();
  private final Set<Runnable> commitListeners = new CopyOnWriteArraySet<>();
  /** Wakes queue listeners: a message may have become available. Waiting wakes the poll. */
  final Signal queue = new Signal(this::watching);
  private int references;
  /** Opened by the first engine that asks, closed after the last one's connections. */
  private WalIndexHeader walIndex; // guarded by BY_PATH

  private Shared(String path) {
    this.path = path;
    this.foreign = path == null ? null
        : new ForeignCommits(path, this::foreignCommit, this::interested);
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
      s.foreign.resume(); // an engine that was the last one may be closing
      return s;
    }
  }

  /**
   * The header of the file's WAL index, opened once for every engine of this JVM on the file;
   * null if it cannot be read.
   *
   * @param shmPath where SQLite keeps the file's shared memory
   */
  WalIndexHeader walIndexHeader(String shmPath) {
    if (path == null) {
      return null;
    }
    synchronized (BY_PATH) {
      if (walIndex == null) {
        walIndex = WalIndexHeader.open(shmPath);
      }
      return walIndex != null && walIndex.mapped() ? walIndex : null;
    }
  }

  /** A commit of this JVM moved the file's version from {@code before} to {@code after}. */
  void committed(long before, long after) {
    if (foreign != null) {
      foreign.committed(before, after);
    }
  }

  /** A transaction of this JVM committed to the file, a group commit of any number of writes. */
  void transactionCommitted() {
    commitListeners.forEach(Runnable::run);
  }

  /**
   * Runs {@code listener} after each transaction this JVM commits to the file (on the writer's
   * thread).
   */
  void onCommit(Runnable listener) {
    commitListeners.add(listener);
  }

  void removeCommitListener(Runnable listener) {
    commitListeners.remove(listener);
  }

  /** Runs {@code listener} after each commit of another process (on a shared thread). */
  void onForeignCommit(Runnable listener) {
    foreignListeners.add(listener);
  }

  void removeForeignListener(Runnable listener) {
    foreignListeners.remove(listener);
  }

  /** Someone in this JVM starts watching: look for other processes' commits from now on. */
  void watching() {
    if (foreign != null) {
      foreign.wake();
    }
  }

  private boolean interested() {
    return queue.hasWaiters() || notifier.hasSubscriptions();
  }

  private void foreignCommit() {
    notifier.changedAll();
    queue.raise();
    foreignListeners.forEach(Runnable::run);
  }

  /**
   * Before an engine closes its connections: if it is the last engine of this JVM on the file,
   * the poll for other processes' commits closes its connection first, so that the engine's
   * writer closes the file's last connection and leaves the file whole (docs/sqlite.md §7).
   */
  void closingConnections() {
    if (path == null) {
      return;
    }
    synchronized (BY_PATH) {
      if (references == 1) {
        foreign.suspend();
      }
    }
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
        foreign.close();
        if (walIndex != null) {
          walIndex.close(); // the engines closed their connections before releasing
        }
      }
    }
  }
}
