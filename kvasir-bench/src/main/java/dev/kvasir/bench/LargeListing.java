package dev.kvasir.bench;

import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Lists a large database from start to end and samples the heap, to show that listing streams
 * in batches instead of holding the result: run it with a heap far smaller than the data.
 *
 * <pre>
 * java -Xmx64m -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.LargeListing DIR|URL [entries]
 * </pre>
 *
 * Fills a new SQLite file in DIR (or a PostgreSQL URL) with {@code entries} values of 200
 * bytes (default 1 000 000), then lists them all, printing the heap in use after a full
 * collection every 100 000 entries.
 */
public final class LargeListing {
  private LargeListing() {}

  public static void main(String[] args) throws Exception {
    int entries = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    String location = args[0];
    if (!location.contains("://")) {
      Path file = Files.createDirectories(Path.of(location)).resolve("large.sqlite3");
      Files.deleteIfExists(file);
      location = file.toString();
    }
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    String value = "x".repeat(200);
    try (Kv kv = Kv.open(location)) {
      long start = System.nanoTime();
      for (int i = 0; i < entries; ) {
        AtomicOperation op = kv.atomic();
        for (int j = 0; j < 1000 && i < entries; j++, i++) {
          op.set(KvKey.of("large", i), value);
        }
        op.commit();
      }
      System.out.printf("filled %d entries in %.1f s; max heap %d MiB%n", entries,
          (System.nanoTime() - start) / 1e9, Runtime.getRuntime().maxMemory() >> 20);
      start = System.nanoTime();
      long n = 0;
      long peak = 0;
      for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("large")))) {
        if (++n % 100_000 == 0) {
          System.gc();
          long used = memory.getHeapMemoryUsage().getUsed() >> 20;
          peak = Math.max(peak, used);
          System.out.printf("listed %,d: heap in use after GC %d MiB%n", n, used);
        }
      }
      if (n != entries) {
        throw new IllegalStateException("listed " + n + " of " + entries);
      }
      System.out.printf("listed %,d entries in %.1f s; heap in use after GC at most %d MiB%n",
          n, (System.nanoTime() - start) / 1e9, peak);
    }
  }
}
