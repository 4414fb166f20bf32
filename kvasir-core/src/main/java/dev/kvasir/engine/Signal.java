package dev.kvasir.engine;

/**
 * A counter that threads can wait on to move: "something may have changed, look again".
 * Thread-safe.
 */
public final class Signal {
  private final Runnable beforeWait;
  private long count; // guarded by this
  private int waiters; // guarded by this
  private boolean closed; // guarded by this

  /** Zero, open. */
  public Signal() {
    this(() -> { });
  }

  /** A signal that runs {@code beforeWait} each time a thread is about to wait on it. */
  public Signal(Runnable beforeWait) {
    this.beforeWait = beforeWait;
  }

  /** Moves the count and wakes every waiter. */
  public synchronized void raise() {
    count++;
    notifyAll();
  }

  public synchronized long count() {
    return count;
  }

  /** Whether a thread waits now. */
  public synchronized boolean hasWaiters() {
    return waiters > 0;
  }

  /** Waits until the count moves past {@code seen}, the timeout passes or this closes. */
  public void await(long seen, long timeoutMs) throws InterruptedException {
    synchronized (this) {
      waiters++;
    }
    try {
      beforeWait.run();
      synchronized (this) {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (count == seen && !closed) {
          long left = deadline - System.currentTimeMillis();
          if (left <= 0) {
            return;
          }
          wait(left);
        }
      }
    } finally {
      synchronized (this) {
        waiters--;
      }
    }
  }

  /** Wakes every waiter for good. */
  public synchronized void close() {
    closed = true;
    notifyAll();
  }
}
