package dev.kvasir.bench;

import dev.kvasir.Kv;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntSupplier;

/**
 * How the harness's W2 speeds up from a cold JVM (docs/performance.md §1): the embedded SQLite
 * engine gets W1's 10 000 entries (written and listed first, untimed) in W2's order, and
 * prints the time per get of the first 1 000 gets and of every 5 000 after, with the JIT's
 * compile time so far. The harness times W2 whole, so how long the code runs before it is
 * compiled shows in its rate.
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.GetWarmUp DIR [--gets 50000]
 * </pre>
 */
public final class GetWarmUp {
  private static final int ENTRIES = 10_000;
  private static final int FIRST_CHUNK = 1_000;
  private static final int CHUNK = 5_000;

  private GetWarmUp() {}

  public static void main(String[] args) throws Exception {
    int gets = DirectoryAndCount.count(args, "GetWarmUp", "--gets", 50_000);
    Path dir = Files.createDirectories(Path.of(args[0]));
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    try (Kv kv = Kv.open(dir.resolve("warm-up.sqlite3").toString())) {
      Peer.w1(kv, ENTRIES); // W1 as the peer runs it, with its check by a list
      IntSupplier keys = PeerProtocol.w2Keys(42, ENTRIES);
      long chunkStart = System.nanoTime();
      long start = chunkStart;
      int from = 0;
      for (int k = 1; k <= gets; k++) {
        Peer.checkedGet(kv, keys.getAsInt());
        if (k == FIRST_CHUNK || k % CHUNK == 0 || k == gets) {
          long now = System.nanoTime();
          System.out.printf("gets %6d-%6d: %5.2f µs/get, JIT %5d ms so far%n", from + 1, k,
              (now - chunkStart) / 1e3 / (k - from), jit.getTotalCompilationTime());
          chunkStart = now;
          from = k;
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("all %d gets: %.1f ms, %.0f gets/s%n", gets, seconds * 1e3,
          gets / seconds);
    }
  }
}
