package dev.kvasir.internal;

import java.util.function.Supplier;

/**
 * Runs code that recurses once per level of a value on a thread of its own when the value is
 * nested deeper than the caller's stack safely holds (docs/values.md §8). The V8 reader and
 * writer, {@code JsValues.deepEquals} and the mapping to Java types recurse, at up to about
 * 1 KiB of stack per level before the JIT has compiled them, and a caller's thread may have a
 * default 1 MiB stack or less. Deep values are rare, so a thread per call costs nothing that
 * matters.
 */
public final class LargeStack {
  /** Reserved, not committed: the thread touches only as many pages as the value is deep. */
  public static final long STACK_BYTES = 64L << 20;

  private LargeStack() {}

  /**
   * Thrown by code limited to the levels a caller's stack holds when the value goes deeper, so
   * that its caller starts it again through {@link #call}, as it does on a stack overflow (a
   * thread with an unusually small stack). No stack trace: it is not an error.
   */
  public static final class Deeper extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public static final Deeper SIGNAL = new Deeper();

    private Deeper() {
      super("deeper than the caller's stack holds", null, false, false);
    }
  }

  /**
   * {@code task}'s result, computed on a new thread with a {@link #STACK_BYTES} stack (and the
   * caller's context class loader, for codecs that use it). Its exceptions are rethrown as they
   * are. Waits through interrupts, which the computation does not look at, and keeps them.
   */
  public static <T> T call(Supplier<T> task) {
    Object[] outcome = new Object[1];
    Throwable[] failure = new Throwable[1];
    Thread worker = new Thread(null, () -> {
      try {
        outcome[0] = task.get();
      } catch (Throwable t) {
        failure[0] = t;
      }
    }, "kvasir-deep-value", STACK_BYTES);
    worker.setDaemon(true);
    worker.start();
    boolean interrupted = false;
    while (true) {
      try {
        worker.join(); // join's happens-before makes outcome and failure visible
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure[0] instanceof RuntimeException e) {
      throw e;
    }
    if (failure[0] instanceof Error e) {
      throw e;
    }
    if (failure[0] != null) { // a checked exception thrown sneakily by a codec
      throw new IllegalStateException(failure[0]);
    }
    @SuppressWarnings("unchecked")
    T result = (T) outcome[0];
    return result;
  }
}
