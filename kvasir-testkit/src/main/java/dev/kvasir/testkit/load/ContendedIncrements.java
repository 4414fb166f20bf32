package dev.kvasir.testkit.load;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.TransactOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worst case of {@link Kv#transact}: threads that all read one counter and write it plus
 * one, so that every commit can make the others' attempts fail. Counts the attempts, so the
 * retries it took can be reported.
 */
public final class ContendedIncrements {
  /** What a run did: the counter read at the end, and the attempts all transactions made. */
  public record Result(int threads, int incrementsPerThread, long counter, long attempts,
      Duration elapsed) {
    public long increments() {
      return (long) threads * incrementsPerThread;
    }

    /** Attempts beyond one per increment: the retries after a failed check. */
    public long retries() {
      return attempts - increments();
    }

    /** Appends this result, for {@code engine}, to {@code file} (the note's figures). */
    public void appendTo(Path file, String engine) throws IOException {
      Files.writeString(file, engine + ": " + this + "\n", StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    }

    @Override
    public String toString() {
      return String.format("%d threads x %d increments: counter %d, %d attempts, %d retries"
          + " (%.2f per increment), %.1f s", threads, incrementsPerThread, counter, attempts,
          retries(), (double) retries() / increments(), elapsed.toMillis() / 1000.0);
    }
  }

  private ContendedIncrements() {}

  /**
   * Runs {@code threads} threads each incrementing {@code key} {@code each} times in {@code kv},
   * transactions retrying as {@code options} say.
   */
  public static Result run(Kv kv, KvKey key, int threads, int each, TransactOptions options)
      throws Exception {
    AtomicLong attempts = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < each; i++) {
            kv.transact(options, tx -> {
              attempts.incrementAndGet();
              KvEntry e = tx.get(key);
              long n = e.exists() ? e.value(Long.class) : 0;
              tx.set(key, n + 1);
              return n + 1;
            });
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    KvEntry counter = kv.get(key);
    return new Result(threads, each, counter.exists() ? counter.value(Long.class) : 0,
        attempts.get(), elapsed);
  }
}
