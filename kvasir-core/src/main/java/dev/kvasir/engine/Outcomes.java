package dev.kvasir.engine;

import dev.kvasir.base.KvException;
import dev.kvasir.internal.Uninterruptibly;
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
    try {
      return Uninterruptibly.get(future);
    } catch (ExecutionException e) {
      throw failure(e, what);
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
