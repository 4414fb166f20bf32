package dev.kvasir.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs code that recurses once per level of a value on a thread with a large stack when the
 * value is nested deeper than the caller's stack safely holds (docs/values.md §8). The V8 reader
 * and writer, {@code JsValues.deepEquals} and the mapping to Java types recurse, at up to about
 * 1 KiB of stack per level before the JIT has compiled them, and a caller's thread may have a
 * default 1 MiB stack or less.
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
   * Threads with large stacks, as many as there are processors (the work is CPU only), kept for
   * a minute after their last task: a deep value's parse touches megabytes of stack, which a new
   * thread would fault in and zero every time (a 64 KiB value nested 21 844 deep took 20–60 ms
   * on a new thread each call), and which a thread keeps until it ends, so that their number
   * bounds that memory. Calls beyond it wait their turn.
   */
  private static final ThreadPoolExecutor THREADS = threads(
      Math.max(2, Runtime.getRuntime().availableProcessors()));
  private static final AtomicInteger COUNT = new AtomicInteger();

  private static ThreadPoolExecutor threads(int count) {
    ThreadPoolExecutor threads = new ThreadPoolExecutor(count, count, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), Worker::new);
    threads.allowCoreThreadTimeOut(true);
    return threads;
  }

  /** A thread of {@link #THREADS}. */
  private static final class Worker extends Thread {
    Worker(Runnable task) {
      super(null, task, "kvasir-deep-value-" + COUNT.incrementAndGet(), STACK_BYTES);
      setDaemon(true);
    }
  }

  /**
   * {@code task}'s result, computed on a thread with a {@link #STACK_BYTES} stack and the
   * caller's context class loader (for codecs that use it). Its exceptions are rethrown as they
   * are. Waits through interrupts, which the computation does not look at, and keeps them.
   */
  public static <T> T call(Supplier<T> task) {
    if (Thread.currentThread() instanceof Worker) {
      return task.get(); // on a large stack already (a codec's own deep value): never wait here
    }
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    Future<T> result = THREADS.submit(() -> {
      Thread self = Thread.currentThread();
      ClassLoader own = self.getContextClassLoader();
      self.setContextClassLoader(loader);
      try {
        return task.get();
      } finally {
        self.setContextClassLoader(own);
      }
    });
    try {
      return Uninterruptibly.get(result);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause()); // a checked exception thrown sneakily
    }
  }
}
