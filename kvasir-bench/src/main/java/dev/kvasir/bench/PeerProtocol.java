package dev.kvasir.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;

/** What every peer of the shared harness shares (docs/peer-protocol.md). */
final class PeerProtocol {
  private static final List<String> ARGUMENTS = List.of("--dir", "--workloads", "--n1", "--n2",
      "--n3-commits", "--n3-batch", "--n4-reps", "--n5", "--n6", "--w6-workers", "--seed");

  /** The six workloads in the order they always run. */
  static final List<String> WORKLOADS = List.of("W1", "W2", "W3", "W4", "W5", "W6");

  private PeerProtocol() {}

  /** The arguments by name; an unknown one ends the process with 2, as the protocol asks. */
  static Map<String, String> arguments(String[] argv) {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i += 2) {
      if (!ARGUMENTS.contains(argv[i]) || i + 1 >= argv.length) {
        System.err.println("usage: --dir DIR --workloads W1,.. --n1 N ... (docs/peer-protocol.md);"
            + " bad argument " + argv[i]);
        System.exit(2);
      }
      args.put(argv[i], argv[i + 1]);
    }
    return args;
  }

  static int n(Map<String, String> args, String name, int fallback) {
    return Integer.parseInt(args.getOrDefault(name, String.valueOf(fallback)));
  }

  /** A workload's result line; {@code extra} starts with a comma or is empty. */
  static String line(String w, long ops, long startNanos, String extra) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    return "{\"workload\":\"" + w + "\",\"ops\":" + ops + ",\"seconds\":" + seconds + extra
        + ",\"ok\":true}";
  }

  /** Checks outside the timed loops; inside them the message is only built on failure. */
  static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }

  /** W2's keys: the protocol's xorshift32 from {@code seed}, each modulo {@code n1}. */
  static IntSupplier w2Keys(long seed, int n1) {
    long[] x = {seed == 0 ? 2463534242L : seed};
    return () -> {
      x[0] ^= (x[0] << 13) & 0xffffffffL;
      x[0] ^= x[0] >>> 17;
      x[0] ^= (x[0] << 5) & 0xffffffffL;
      return (int) (x[0] % n1);
    };
  }

  /** W6's successes and retries. */
  record Contention(long successes, long retries) {}

  /**
   * Runs W6's workers on platform threads until each stops. Worker {@code w}'s {@code
   * attemptOf.apply(w)} reads, then tries one checked increment, and returns whether it
   * succeeded, or null once the value it read reached the goal.
   */
  static Contention contend(int workers, IntFunction<Callable<Boolean>> attemptOf)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    try {
      List<Future<long[]>> done = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        Callable<Boolean> attempt = attemptOf.apply(w);
        done.add(pool.submit(() -> {
          long[] counts = new long[2];
          for (Boolean ok = attempt.call(); ok != null; ok = attempt.call()) {
            counts[ok ? 0 : 1]++;
          }
          return counts;
        }));
      }
      long successes = 0;
      long retries = 0;
      for (Future<long[]> f : done) {
        long[] counts = f.get();
        successes += counts[0];
        retries += counts[1];
      }
      return new Contention(successes, retries);
    } finally {
      pool.shutdown();
    }
  }
}
