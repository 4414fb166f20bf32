package dev.kvasir.testkit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Work a test runs beside itself that blocks (reading a process's output until it ends, waiting
 * for a watch's next change, a commit held by a lock), each on a thread of its own. Not {@code
 * CompletableFuture.supplyAsync(work)}: on Java 25 with one or two processors its default is the
 * common pool with a single thread, so one blocked task kept the next from starting and a test
 * waited for ever (a command's output was never read while another command's errors were being
 * read); Java 17 started a thread per task there, and bigger machines have more threads.
 */
public final class Blocking {
  private static final Executor OWN_THREAD = task -> {
    Thread thread = new Thread(task, "kvasir-test-blocking");
    thread.setDaemon(true); // a test that failed must not keep the JVM alive
    thread.start();
  };

  private Blocking() {}

  /** {@code work}'s result, computed on a thread of its own. */
  public static <T> CompletableFuture<T> call(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, OWN_THREAD);
  }

  /** {@code work}, run on a thread of its own. */
  public static CompletableFuture<Void> run(Runnable work) {
    return CompletableFuture.runAsync(work, OWN_THREAD);
  }
}
