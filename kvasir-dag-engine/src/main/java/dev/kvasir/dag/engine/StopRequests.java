package dev.kvasir.dag.engine;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * How a backup copy, a restore or a replication gives up when its caller asks it to (a signal
 * to {@code kvasir}, docs/backup.md §2–§4): by an exception thrown between two entries or
 * blocks, which ends its transaction or commit the way any failure does, committing nothing.
 */
final class StopRequests {
  private StopRequests() {}

  /** Throws if {@code stopRequested} answers true; {@code what} names the work in the message. */
  static void check(BooleanSupplier stopRequested, String what) {
    if (stopRequested.getAsBoolean()) {
      throw new CancellationException("the " + what + " was stopped before it was complete");
    }
  }
}
