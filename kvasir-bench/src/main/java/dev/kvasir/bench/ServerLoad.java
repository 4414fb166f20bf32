package dev.kvasir.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvOptions;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.value.KvU64;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Many concurrent clients with a mixed load (50% get, 20% set, 10% list of 10, 20%
 * check-and-set increments of one of 16 counters, retried until they succeed) for a while,
 * after a warm-up that is not measured. Afterwards each counter must equal the increments its
 * clients saw succeed (no lost writes). Prints throughput, p50 and p99 latency (in all and per
 * kind of operation), errors, and the CPU time each process spent per operation.
 *
 * <p>Drivers (docs/performance.md §4):
 * <ul>
 *   <li>{@code remote}: Java clients in this process, each its own {@link Kv} and connection,
 *       through KV Connect to a server in a JVM of its own ({@link LoadServer}) on a SQLite
 *       file;
 *   <li>{@code remote-async}: the same, each client on {@link Kv#async} with one operation in
 *       flight at a time ({@link AsyncLoadClient}), as each Deno client keeps one;
 *   <li>{@code deno}: the same mix from Deno clients (the script {@code server-load.mjs}, each
 *       client its own {@code Deno.openKv}) against the same kind of server, the clients shared
 *       out over {@code --deno-loops} event loops (workers of one Deno process; by default one
 *       per core, as the Java driver's threads use every core); the Deno the build installed,
 *       or {@code KVASIR_DENO};
 *   <li>{@code embedded}: the Java clients on the embedded API on the same kind of file.
 * </ul>
 *
 * <p>With {@code --watches N} (remote only), that many watch streams are opened first, each on
 * one of the items the load sets, each on a connection of its own from another process
 * ({@link WatchClients}), and stay open during the load: the cost of idle and busy watches.
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.ServerLoad DIR \
 *     remote|remote-async|deno|embedded
 *     [--clients 64] [--seconds 30] [--warmup 10] [--watches 0] [--deno-loops CORES]
 * </pre>
 */
public final class ServerLoad {
  static final String TOKEN = "load-test-token-0123456789";
  static final int COUNTERS = 16;
  static final int ITEMS = 1000;
  /** How many items a list of the mix reads, from a random one on. */
  static final int LISTED = 10;
  static final ListOptions LIST = ListOptions.defaults().limit(LISTED);
  /** The kinds of operation, in the order of {@link Draw#next}'s mix. */
  static final List<String> KINDS = List.of("get", "set", "list", "increment");

  private ServerLoad() {}

  /** Who drives the load. */
  public enum Driver {
    REMOTE, REMOTE_ASYNC, DENO, EMBEDDED;

    /** As on the command line: {@code remote-async}. */
    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Driver of(String label) {
      return valueOf(label.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /** The Deno driver's event loops unless told otherwise: one per core. */
  static final int DEFAULT_DENO_LOOPS = Runtime.getRuntime().availableProcessors();

  /** A run's shape. */
  public record Options(Driver driver, int clients, int seconds, int warmup, int watches,
      int denoLoops) {}

  /** Median and 99th percentile of some operations, in milliseconds. */
  public record Latency(long count, double p50Millis, double p99Millis) {
    static Latency of(long[] nanos) {
      Arrays.sort(nanos);
      int n = nanos.length;
      return n == 0 ? new Latency(0, Double.NaN, Double.NaN)
          : new Latency(n, nanos[n / 2] / 1e6, nanos[Math.min(n - 1, (int) (n * 0.99))] / 1e6);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "p50 %.2f ms, p99 %.2f ms", p50Millis, p99Millis);
    }
  }

  /**
   * What one run measured, over its measured seconds. CPU times are per operation, in
   * microseconds: the server's process and the driver's ({@code NaN} where not measured; for
   * {@code embedded} the one process is the driver). {@code serverCompilingSeconds} is how long
   * the server's JIT compilers worked during the measured part ({@code NaN} where not
   * measured): much of it means the warm-up was too short for the machine.
   */
  public record Result(Options options, long operations, long errors, long lostIncrements,
      Latency all, Map<String, Latency> byKind, double serverCpuMicros, double driverCpuMicros,
      double serverCompilingSeconds) {
    public double perSecond() {
      return operations / (double) options.seconds();
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
          "%s, %d clients, %d s after %d s warm-up%s: %d operations (%.0f/s), %d errors,"
          + " %d lost increments, %s", options.driver().label(),
          options.clients(), options.seconds(), options.warmup(),
          (options.watches() > 0 ? ", " + options.watches() + " watch streams" : "")
          + (options.driver() == Driver.DENO ? ", " + options.denoLoops() + " event loops" : ""),
          operations, perSecond(), errors, lostIncrements, all));
      byKind.forEach((kind, l) -> s.append(String.format(Locale.ROOT, "\n  %-9s %7d, %s",
          kind, l.count(), l)));
      s.append(String.format(Locale.ROOT, "\n  CPU per operation: server %.0f µs, driver %.0f µs",
          serverCpuMicros, driverCpuMicros));
      if (!Double.isNaN(serverCompilingSeconds)) {
        s.append(String.format(Locale.ROOT,
            "\n  the server's JIT compilers worked %.1f s of the %d measured",
            serverCompilingSeconds, options.seconds()));
      }
      return s.toString();
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || args.length % 2 != 0) {
      System.err.println("usage: ServerLoad DIR remote|remote-async|deno|embedded"
          + " [--clients N] [--seconds N] [--warmup N] [--watches N] [--deno-loops N]");
      System.exit(2);
    }
    Map<String, Integer> named = new LinkedHashMap<>(Map.of("--clients", 64, "--seconds", 30,
        "--warmup", 10, "--watches", 0, "--deno-loops", DEFAULT_DENO_LOOPS));
    for (int i = 2; i + 1 < args.length; i += 2) {
      if (!named.containsKey(args[i])) {
        System.err.println("unknown option " + args[i]);
        System.exit(2);
      }
      named.put(args[i], Integer.parseInt(args[i + 1]));
    }
    if (named.get("--deno-loops") < 1) {
      System.err.println("--deno-loops must be at least 1");
      System.exit(2);
    }
    Options options = new Options(Driver.of(args[1]), named.get("--clients"),
        named.get("--seconds"), named.get("--warmup"), named.get("--watches"),
        named.get("--deno-loops"));
    System.out.println(run(Files.createDirectories(Path.of(args[0])), options));
  }

  /** Runs the load on a fresh file in {@code dir}. */
  public static Result run(Path dir, Options options) throws Exception {
    if (options.watches() > 0 && options.driver() != Driver.REMOTE
        && options.driver() != Driver.REMOTE_ASYNC) {
      throw new IllegalArgumentException("watch streams need a remote driver");
    }
    Path file = dir.resolve("load-" + options.driver().label() + ".sqlite3");
    for (String suffix : new String[] {"", "-wal", "-shm"}) { // a killed run leaves all three
      Files.deleteIfExists(Path.of(file + suffix));
    }
    if (options.driver() == Driver.EMBEDDED) {
      try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()))) {
        List<Kv> kvs = new ArrayList<>();
        for (int i = 0; i < options.clients(); i++) {
          kvs.add(Kv.of(engine));
        }
        return javaClients(options, kvs, null);
      }
    }
    try (LoadServer server = LoadServer.start(file, TOKEN)) {
      if (options.driver() == Driver.DENO) {
        return DenoLoad.run(options, server);
      }
      List<Kv> kvs = new ArrayList<>();
      try {
        for (int i = 0; i < options.clients(); i++) {
          kvs.add(open(server));
        }
        try (WatchClients watchers = options.watches() > 0
            ? WatchClients.start(server, TOKEN, options.watches()) : null) {
          return javaClients(options, kvs, server);
        }
      } finally {
        kvs.forEach(Kv::close);
      }
    }
  }

  static Kv open(LoadServer server) {
    return Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN));
  }

  /** The increments stored at the counters minus those the clients saw succeed. */
  static long lostIncrements(Kv kv, long[] seen) {
    long lost = 0;
    for (int i = 0; i < COUNTERS; i++) {
      KvEntry e = kv.get(KvKey.of("counter", i));
      lost += Math.abs(seen[i] - count(e));
    }
    return lost;
  }

  /** CPU time per operation in microseconds, from two readings in nanoseconds. */
  static double micros(long before, long after, long operations) {
    return operations == 0 ? Double.NaN : (after - before) / 1e3 / operations;
  }

  /** Seconds between two {@link LoadServer#compilationMillis} readings, NaN if not measured. */
  static double compilingSeconds(long beforeMillis, long afterMillis) {
    return beforeMillis < 0 || afterMillis < 0 ? Double.NaN : (afterMillis - beforeMillis) / 1e3;
  }

  private static Result javaClients(Options options, List<Kv> kvs, LoadServer server)
      throws Exception {
    Kv seed = kvs.get(0);
    for (int i = 0; i < ITEMS; i++) {
      seed.set(KvKey.of("item", i), item(i));
    }
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    LongSupplier serverCpu = server == null ? () -> 0 : () -> server.cpuNanos();
    AtomicLongArray increments = new AtomicLongArray(COUNTERS);
    AtomicLong errors = new AtomicLong();
    int clients = options.clients();
    Recorder[] recorders = new Recorder[clients];
    long measureFrom = System.nanoTime() + Duration.ofSeconds(options.warmup()).toNanos();
    long end = measureFrom + Duration.ofSeconds(options.seconds()).toNanos();
    CountDownLatch finished = new CountDownLatch(clients);
    for (int c = 0; c < clients; c++) {
      Client client = new Client(measureFrom, end, recorders[c] = new Recorder(), errors);
      Kv kv = kvs.get(c);
      if (options.driver() == Driver.REMOTE_ASYNC) {
        // Callbacks run on the thread that read the answer, which also sends the next request:
        // the client's own threads hand nothing over (docs/async.md §2).
        AsyncLoadClient.start(kv.async(Runnable::run), client, increments, finished::countDown);
        continue;
      }
      Thread t = new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (long start; client.open(start = System.nanoTime()); ) {
          try {
            client.done(start, operation(kv, random, increments), null);
          } catch (RuntimeException e) {
            client.done(start, -1, e);
          }
        }
        finished.countDown();
      }, "load-client-" + c);
      t.start();
    }
    Thread.sleep(Math.max(0, (measureFrom - System.nanoTime()) / 1_000_000));
    long serverBefore = serverCpu.getAsLong();
    long driverBefore = os.getProcessCpuTime();
    long compilingBefore = server == null ? -1 : server.compilationMillis();
    Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
    long serverAfter = serverCpu.getAsLong();
    long driverAfter = os.getProcessCpuTime();
    long compilingAfter = server == null ? -1 : server.compilationMillis();
    finished.await();
    long[] seen = new long[COUNTERS];
    Arrays.setAll(seen, increments::get);
    long lost = lostIncrements(seed, seen);
    Map<String, Latency> byKind = new LinkedHashMap<>();
    for (int k = 0; k < KINDS.size(); k++) {
      byKind.put(KINDS.get(k), Latency.of(Recorder.merged(recorders, k)));
    }
    Latency all = Latency.of(Recorder.merged(recorders, -1));
    return new Result(options, all.count(), errors.get(), lost, all, byKind,
        server == null ? Double.NaN : micros(serverBefore, serverAfter, all.count()),
        micros(driverBefore, driverAfter, all.count()),
        compilingSeconds(compilingBefore, compilingAfter));
  }

  static Map<String, Object> item(int i) {
    return Map.of("i", (double) i, "name", "item " + i);
  }

  /**
   * One operation of the mix, drawn at random: its kind (an index into {@link #KINDS}) and the
   * number it works on, an item, the first item listed or a counter. Both Java drivers draw
   * here, so they run the same mix.
   */
  record Draw(int kind, int n) {
    static Draw next(ThreadLocalRandom random) {
      int op = random.nextInt(100);
      if (op < 50) {
        return new Draw(0, random.nextInt(ITEMS));
      } else if (op < 70) {
        return new Draw(1, random.nextInt(ITEMS));
      } else if (op < 80) {
        return new Draw(2, random.nextInt(ITEMS - LISTED));
      }
      return new Draw(3, random.nextInt(COUNTERS));
    }

    /** The item a get or set works on. */
    KvKey item() {
      return KvKey.of("item", n);
    }

    /** The items a list reads (with {@link ServerLoad#LIST}). */
    ListSelector listed() {
      return ListSelector.range(KvKey.of("item", n), KvKey.of("item", n + LISTED));
    }

    /** The counter an increment works on. */
    KvKey counter() {
      return KvKey.of("counter", n);
    }
  }

  /** One operation of the mix; returns its kind. */
  private static int operation(Kv kv, ThreadLocalRandom random, AtomicLongArray increments) {
    Draw draw = Draw.next(random);
    switch (draw.kind()) {
      case 0 -> kv.get(draw.item());
      case 1 -> kv.set(draw.item(), item(draw.n()));
      case 2 -> {
        for (KvEntry e : kv.list(draw.listed(), LIST)) {
          e.key();
        }
      }
      default -> {
        KvKey key = draw.counter();
        while (true) {
          KvEntry e = kv.get(key);
          if (kv.atomic().check(e).set(key, KvU64.of(count(e) + 1)).commit().ok()) {
            increments.incrementAndGet(draw.n());
            break;
          }
        }
      }
    }
    return draw.kind();
  }

  /** A counter's value: its u64, or 0 before its first increment. */
  static long count(KvEntry counter) {
    return counter.exists() ? ((KvU64) counter.value()).unsignedBits() : 0;
  }

  /**
   * One client's window and records: it starts operations until {@code end} and records those
   * started from {@code measureFrom} on.
   */
  record Client(long measureFrom, long end, Recorder recorder, AtomicLong errors) {
    /** Whether an operation starting at {@code now} is still in the run. */
    boolean open(long now) {
      return now < end;
    }

    /**
     * Records the operation started at {@code start}: its kind (an index into {@link
     * ServerLoad#KINDS}), or the error it ended with.
     */
    void done(long start, int kind, Throwable error) {
      if (error != null) {
        if (errors.incrementAndGet() <= 5) {
          System.err.println("error: " + error);
        }
      } else if (start >= measureFrom) {
        recorder.add(kind, System.nanoTime() - start);
      }
    }
  }

  /** One client's measured latencies, in nanoseconds, by kind. */
  static final class Recorder {
    private final long[][] nanos = new long[KINDS.size()][1024];
    private final int[] counts = new int[KINDS.size()];

    void add(int kind, long latency) {
      if (counts[kind] == nanos[kind].length) {
        nanos[kind] = Arrays.copyOf(nanos[kind], counts[kind] * 2);
      }
      nanos[kind][counts[kind]++] = latency;
    }

    /** Every recorder's latencies of {@code kind}, or of all kinds for -1. */
    static long[] merged(Recorder[] recorders, int kind) {
      List<long[]> parts = new ArrayList<>();
      for (Recorder r : recorders) {
        for (int k = 0; k < KINDS.size(); k++) {
          if (kind == -1 || kind == k) {
            parts.add(Arrays.copyOf(r.nanos[k], r.counts[k]));
          }
        }
      }
      return parts.stream().flatMapToLong(Arrays::stream).toArray();
    }
  }
}
