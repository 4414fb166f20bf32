package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvOptions;
import dev.kvasir.server.KvServer;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.value.KvU64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Many concurrent clients with a mixed load (50% get, 20% set, 10% list of 10, 20%
 * check-and-set increments of one of 16 counters) for a while, through KV Connect (a {@link
 * KvServer} on loopback over a SQLite file, each client its own connection) or the embedded
 * API on the same kind of file. Afterwards each counter must equal the increments its clients
 * saw succeed (no lost writes). Prints errors, throughput and p50/p99 latency.
 *
 * <p>With {@code watches} (remote only), that many watch streams are opened first, each on one
 * of the items the load sets, each on a connection of its own from another process
 * ({@link WatchClients}), and stay open during the load: the cost of idle and busy watches, as
 * p99 with and without them.
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.ServerLoad DIR remote|embedded [clients] [seconds] [watches]
 * </pre>
 */
public final class ServerLoad {
  private static final String TOKEN = "load-test-token-0123456789";
  private static final int COUNTERS = 16;

  private ServerLoad() {}

  /** What one run measured. */
  public record Result(String path, int clients, int seconds, int operations, long errors,
      long lostIncrements, double p50Millis, double p99Millis) {
    @Override
    public String toString() {
      return String.format("%s, %d clients, %d s: %d operations (%.0f/s), %d errors, %d lost"
          + " increments, p50 %.2f ms, p99 %.2f ms", path, clients, seconds, operations,
          operations / (double) seconds, errors, lostIncrements, p50Millis, p99Millis);
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    boolean remote = args[1].equals("remote");
    int clients = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 30;
    int watches = args.length > 4 ? Integer.parseInt(args[4]) : 0;
    System.out.println(run(dir, remote, clients, seconds, watches));
  }

  /** Runs the load on a fresh file in {@code dir}. */
  public static Result run(Path dir, boolean remote, int clients, int seconds)
      throws Exception {
    return run(dir, remote, clients, seconds, 0);
  }

  /** Runs the load on a fresh file in {@code dir} with {@code watches} streams open. */
  public static Result run(Path dir, boolean remote, int clients, int seconds, int watches)
      throws Exception {
    String path = remote ? "remote" : "embedded";
    Path file = dir.resolve("load-" + path + ".sqlite3");
    for (String suffix : new String[] {"", "-wal", "-shm"}) { // a killed run leaves all three
      Files.deleteIfExists(Path.of(file + suffix));
    }
    SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()));
    KvServer server = remote ? KvServer.builder(engine).accessToken(TOKEN).port(0).start() : null;
    List<Kv> kvs = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      kvs.add(remote ? Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN))
          : Kv.of(engine));
    }
    Kv seed = kvs.get(0);
    for (int i = 0; i < 1000; i++) {
      seed.set(KvKey.of("item", i), Map.of("i", (double) i, "name", "item " + i));
    }
    WatchClients watchers = watches > 0 ? WatchClients.start(server, TOKEN, watches) : null;
    AtomicLongArray increments = new AtomicLongArray(COUNTERS);
    AtomicLong errors = new AtomicLong();
    long[][] latencies = new long[clients][];
    int[] counts = new int[clients];
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int id = c;
      Kv kv = kvs.get(c);
      latencies[c] = new long[1 << 20];
      Thread t = new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < end) {
          long start = System.nanoTime();
          try {
            operation(kv, random, increments);
          } catch (RuntimeException e) {
            if (errors.incrementAndGet() <= 5) {
              System.err.println("error: " + e);
            }
          }
          if (counts[id] < latencies[id].length) {
            latencies[id][counts[id]++] = System.nanoTime() - start;
          }
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    long lost = 0;
    for (int i = 0; i < COUNTERS; i++) {
      KvEntry e = seed.get(KvKey.of("counter", i));
      long stored = e.exists() ? ((KvU64) e.value()).unsignedBits() : 0;
      lost += Math.abs(increments.get(i) - stored);
    }
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int c = 0; c < clients; c++) {
      System.arraycopy(latencies[c], 0, all, at, counts[c]);
      at += counts[c];
    }
    Arrays.sort(all);
    for (Kv kv : kvs) {
      if (remote) {
        kv.close();
      }
    }
    if (watchers != null) {
      watchers.close();
    }
    if (server != null) {
      server.close();
    }
    engine.close();
    return new Result(path + (watches > 0 ? " with " + watches + " watch streams" : ""),
        clients, seconds, total, errors.get(), lost, all[total / 2] / 1e6,
        all[(int) (total * 0.99)] / 1e6);
  }

  private static void operation(Kv kv, ThreadLocalRandom random, AtomicLongArray increments) {
    int op = random.nextInt(100);
    if (op < 50) {
      kv.get(KvKey.of("item", random.nextInt(1000)));
    } else if (op < 70) {
      int i = random.nextInt(1000);
      kv.set(KvKey.of("item", i), Map.of("i", (double) i, "name", "item " + i));
    } else if (op < 80) {
      int from = random.nextInt(990);
      for (KvEntry e : kv.list(ListSelector.range(KvKey.of("item", from), KvKey.of("item",
          from + 10)), ListOptions.defaults().limit(10))) {
        e.key();
      }
    } else {
      int n = random.nextInt(COUNTERS);
      KvKey key = KvKey.of("counter", n);
      while (true) {
        KvEntry e = kv.get(key);
        long current = e.exists() ? ((KvU64) e.value()).unsignedBits() : 0;
        if (kv.atomic().check(e).set(key, KvU64.of(current + 1)).commit().ok()) {
          increments.incrementAndGet(n);
          return;
        }
      }
    }
  }
}
