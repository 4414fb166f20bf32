package dev.kvasir.testkit.powercut;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A stop of the disk at a chosen point: it applies a given number of changes (writes, syncs,
 * changes of size or names) and holds every change after them unanswered, as if the machine
 * had stopped right there, until the test has killed the writer. Then it refuses each held
 * change, and any later one, with {@code EIO}; only a process that is already dying sees that
 * (docs/power-cut.md §4).
 */
final class Freeze {
  /** What to do with a change that arrives. */
  enum Verdict { APPLY, HOLD, REFUSE }

  private final CountDownLatch reached = new CountDownLatch(1);
  private final List<Long> held = new ArrayList<>();
  private int changesLeft;
  private boolean released;

  Freeze(int changes) {
    this.changesLeft = changes;
  }

  /** Decides on the change of request {@code unique}, holding it if it is past the point. */
  synchronized Verdict admit(long unique) {
    if (released) {
      return Verdict.REFUSE;
    }
    if (changesLeft > 0) {
      changesLeft--;
      return Verdict.APPLY;
    }
    held.add(unique);
    reached.countDown();
    return Verdict.HOLD;
  }

  /** Whether a change arrived past the point within {@code timeoutMs}. */
  boolean awaitReached(long timeoutMs) throws InterruptedException {
    return reached.await(timeoutMs, TimeUnit.MILLISECONDS);
  }

  /** Ends the hold: returns the requests held, to be refused, and refuses all later ones. */
  synchronized List<Long> release() {
    released = true;
    List<Long> out = List.copyOf(held);
    held.clear();
    return out;
  }
}
