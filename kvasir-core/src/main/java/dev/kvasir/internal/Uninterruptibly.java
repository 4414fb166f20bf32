package dev.kvasir.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for work already under way, whose outcome an interrupt must not cut short. */
public final class Uninterruptibly {
  private Uninterruptibly() {}

  /**
   * The value of {@code future}, waited for through interrupts, which are set again once it is
   * there.
   *
   * @throws ExecutionException as {@link Future#get()}, the interrupt set again as well
   */
  public static <T> T get(Future<T> future) throws ExecutionException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
