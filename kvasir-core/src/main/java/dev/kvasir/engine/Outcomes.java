package dev.kvasir.engine;

import dev.kvasir.base.KvException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Waiting for the outcome of a write already under way, which an interrupt must not cut short:
 * only the outcome tells the caller whether the write was applied (docs/atomic.md §9).
 */
public final class Outcomes {
  private Outcomes() {}

  /**
   * The value of {@code future}, waited for through interrupts, which are set again once it is
   * there; its failure thrown as {@link #failure} makes it.
   */
  public static <T> T awaitUninterruptibly(Future<T> future, String what) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          throw failure(e, what);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * What a failed {@code what} throws: its cause as it is when unchecked, else a {@link
   * KvException} "{@code what} failed: …".
   */
  public static RuntimeException failure(ExecutionException e, String what) {
    if (e.getCause() instanceof RuntimeException r) {
      return r;
    }
    return new KvException(what + " failed: " + e.getCause(), e.getCause());
  }
}
