package dev.kvasir.bench;

import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How many bytes the heap hands out per listed entry, for the harness's W4 values
 * (docs/performance.md §1 and §5, "Fewer bytes per entry"): on a machine where each fresh page
 * of the heap costs a fault, a cold scan pays for its allocation as much as for its work. Writes
 * W1's 10 000 entries into a new SQLite file in DIR (in batches, untimed), then lists them
 * {@code scans} times as W4 does, reading each key's number and each value's {@code i}, and
 * prints the bytes allocated per entry by the first scan and by the last half of them, then the
 * heap that the decoded values keep while they are held.
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.ListAllocation DIR [--scans 20]
 * </pre>
 */
public final class ListAllocation {
  private static final int ENTRIES = 10_000;
  /** Scans whose values are held: enough megabytes that the heap's regions do not blur them. */
  private static final int HELD_SCANS = 10;

  private ListAllocation() {}

  public static void main(String[] args) throws Exception {
    int scans = DirectoryAndCount.count(args, "ListAllocation", "--scans", 20);
    Path file = Files.createDirectories(Path.of(args[0])).resolve("list-allocation.sqlite3");
    Files.deleteIfExists(file);
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (Kv kv = Kv.open(file.toString())) {
      for (int i = 0; i < ENTRIES; ) {
        AtomicOperation op = kv.atomic();
        for (int j = 0; j < 100; j++, i++) {
          op.set(KvKey.of("bench", i), Peer.value(i));
        }
        op.commit();
      }
      long warmFrom = 0;
      for (int scan = 1; scan <= scans; scan++) {
        if (scan == scans / 2 + 1) {
          warmFrom = threads.getCurrentThreadAllocatedBytes();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        Peer.checkedScan(kv, ENTRIES);
        if (scan == 1) {
          System.out.printf("scan 1: %.1f bytes per entry%n",
              (threads.getCurrentThreadAllocatedBytes() - before) / (double) ENTRIES);
        }
      }
      int warmScans = scans - scans / 2;
      System.out.printf("scans %d-%d: %.1f bytes per entry%n", scans / 2 + 1, scans,
          (threads.getCurrentThreadAllocatedBytes() - warmFrom) / (double) ENTRIES / warmScans);
      printHeldValues(kv);
    }
  }

  /**
   * The heap that decoded values keep while an application holds them (those of ten scans), after
   * full collections before and after: what a cache of listed values costs.
   */
  private static void printHeldValues(Kv kv) throws InterruptedException {
    List<Object> held = new ArrayList<>(HELD_SCANS * ENTRIES);
    long before = usedAfterCollection();
    for (int scan = 0; scan < HELD_SCANS; scan++) {
      listValues(kv, held);
    }
    long after = usedAfterCollection();
    System.out.printf("values held: %.1f bytes per value (%d values)%n",
        (after - before) / (double) held.size(), held.size());
  }

  /** In a method of its own, so that nothing of the list but the values outlives it. */
  private static void listValues(Kv kv, List<Object> into) {
    for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("bench")))) {
      into.add(e.value());
    }
  }

  private static long usedAfterCollection() throws InterruptedException {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 2; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
