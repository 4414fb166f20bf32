package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Commit throughput with many concurrent writers, each awaiting its own commits one by one (W1's
 * data shape), with the engine's durable default: group commit shares one fsync among the
 * commits pending together. Compare with the harness's W1 rate for Deno. The database is a new
 * SQLite file in DIR, or a PostgreSQL URL, which several processes may run against at once.
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.ConcurrentWriters DIR|URL [writers] [commits]
 * </pre>
 */
public final class ConcurrentWriters {
  private ConcurrentWriters() {}

  public static void main(String[] args) throws Exception {
    int writers = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int total = args.length > 2 ? Integer.parseInt(args[2]) : 40_000;
    String location;
    if (args[0].startsWith("postgresql://")) {
      location = args[0]; // shared: several processes may write it at once
    } else {
      Path file = Files.createDirectories(Path.of(args[0])).resolve("concurrent.sqlite3");
      Files.deleteIfExists(file);
      location = file.toString();
    }
    try (Kv kv = Kv.open(location)) {
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<?>> done = new ArrayList<>();
      long start = System.nanoTime();
      for (int w = 0; w < writers; w++) {
        int first = w;
        done.add(pool.submit(() -> {
          for (int i = first; i < total; i += writers) {
            if (!kv.set(KvKey.of("bench", i), Peer.value(i)).ok()) {
              throw new IllegalStateException("commit " + i + " failed");
            }
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      pool.shutdown();
      System.out.printf("{\"writers\":%d,\"commits\":%d,\"seconds\":%.3f,\"commits_per_s\":%.0f}%n",
          writers, total, seconds, total / seconds);
    }
  }
}
