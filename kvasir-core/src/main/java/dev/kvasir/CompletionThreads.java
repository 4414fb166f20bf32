package dev.kvasir;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where {@link Kv#async()} completes its futures unless told otherwise (docs/async.md §2): as
 * many daemon threads as processors (at least two), shared by every database of the process,
 * ended after a minute idle. Not {@code ForkJoinPool.commonPool()}: on a two-processor machine
 * that pool has one thread, and handing it every completion made 64 outstanding gets twenty
 * times slower than 64 threads calling the blocking API.
 */
final class CompletionThreads {
  private static final Executor SHARED = create();

  private CompletionThreads() {}

  static Executor shared() {
    return SHARED;
  }

  private static Executor create() {
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), task -> {
          Thread t = new Thread(task, "kvasir-async-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
