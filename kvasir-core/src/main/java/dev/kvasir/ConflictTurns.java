package dev.kvasir;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Turns for the transactions of one database that keep meeting conflicts (docs/atomic.md §8,
 * item 6). Attempts run side by side; a transaction that failed its check many times takes the
 * turn and holds it until it ends. While a turn is held or awaited, new attempts wait behind it,
 * in order of arrival, and the holder waits for the attempts already running to end: its next
 * attempt meets no other transaction of this process. Optimistic retries alone let one that lost
 * a few times keep losing to the others: of 8 threads incrementing one counter, one gave up after
 * 20 attempts. Transactions that do not collide never wait.
 */
final class ConflictTurns {
  private final ReentrantLock turn = new ReentrantLock(true);
  /** Attempts running without the turn. */
  private final AtomicInteger free = new AtomicInteger();
  /** Whether this thread runs an attempt now: a transaction inside one takes no turn. */
  private final ThreadLocal<Boolean> inAttempt = ThreadLocal.withInitial(() -> false);

  /** Whether this thread is inside an attempt (a transaction begun in a transaction's work). */
  boolean nested() {
    return inAttempt.get();
  }

  /**
   * Starts an attempt without the turn, once no transaction holds it: behind those holding or
   * awaiting it at arrival, but once past them only behind a holder, so that attempts passing
   * through do not queue behind one another for ever.
   */
  void startFree() throws InterruptedException {
    boolean passed = false;
    while (true) {
      free.incrementAndGet();
      if (!turn.isLocked() && (passed || !turn.hasQueuedThreads())) {
        return;
      }
      free.decrementAndGet();
      turn.lockInterruptibly();
      turn.unlock();
      passed = true;
    }
  }

  void endFree() {
    free.decrementAndGet();
  }

  /** Takes the turn, then waits for the attempts running without it to end. */
  void take() throws InterruptedException {
    turn.lockInterruptibly();
    while (free.get() > 0) {
      LockSupport.parkNanos(20_000);
      if (Thread.interrupted()) {
        turn.unlock();
        throw new InterruptedException();
      }
    }
  }

  void release() {
    turn.unlock();
  }

  /** Marks this thread as inside an attempt, or no longer. */
  void inAttempt(boolean inside) {
    inAttempt.set(inside);
  }
}
