package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.bench.chart.LineChart;
import dev.kvasir.dag.engine.Backup;
import dev.kvasir.dag.engine.PointInTime;
import dev.kvasir.dag.engine.Replication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a KV/DAG backup costs (docs/backup.md §6), on SQLite sources:
 *
 * <ol>
 *   <li><b>pace</b>: one thread commits single-key sets as fast as it can (the harness's W1)
 *       while a backup follows at its default 50 ms; its lag (how old the newest copy is) is
 *       sampled every second, and the commit rate is compared with the same run without one;
 *   <li><b>bytes per copy</b> after one changed key, at each database size: it should grow
 *       with the depth of the shard path, not with the size (an SVG chart with {@code --svg});
 *   <li>at the largest size, <b>replication</b> after 1% of the keys changed (blocks and bytes
 *       against the full copy) and <b>restore</b> throughput.
 * </ol>
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.BackupBench
 *     [--sizes 10000,100000,1000000] [--pace-seconds 20] [--svg FILE]</pre>
 */
public final class BackupBench {
  private static final int PACE_KEYS = 10_000;
  private static final int ONE_KEY_COPIES = 15;

  private BackupBench() {}

  public static void main(String[] args) throws Exception {
    int[] sizes = {10_000, 100_000, 1_000_000};
    int paceSeconds = 20;
    Path svg = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
            .toArray();
        case "--pace-seconds" -> paceSeconds = Integer.parseInt(args[++i]);
        case "--svg" -> svg = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Path work = Files.createTempDirectory("kvasir-backup-bench");
    try {
      if (paceSeconds > 0) {
        pace(work.resolve("pace"), paceSeconds);
      }
      List<double[]> bytesPerCopy = new ArrayList<>();
      System.out.printf("%n%-10s %14s %10s %16s %14s%n", "entries", "full copy", "seconds",
          "bytes/1-key copy", "ms per copy");
      for (int n : sizes) {
        bytesPerCopy.add(new double[] {n, sizes(work.resolve("size-" + n), n,
            n == sizes[sizes.length - 1])});
      }
      if (svg != null) {
        Files.writeString(svg, new LineChart("Bytes a backup stores per copy after one changed"
            + " key", "entries in the database (log scale)", "bytes per copy", true)
            .add(new LineChart.Series("SQLite source, KV/DAG backup", bytesPerCopy)).svg());
        System.out.println("chart: " + svg);
      }
    } finally {
      Directories.delete(work);
    }
  }

  /** W1 alone, then W1 with a backup following; the backup's lag every second. */
  private static void pace(Path dir, int seconds) throws Exception {
    Files.createDirectories(dir);
    double alone;
    try (Kv kv = Kv.open(dir.resolve("alone.sqlite3").toString())) {
      fill(kv, PACE_KEYS);
      alone = commitFor(kv, seconds, () -> { });
    }
    try (Kv kv = Kv.open(dir.resolve("followed.sqlite3").toString());
        Kv reader = Kv.open(dir.resolve("followed.sqlite3").toString());
        Backup backup = Backup.open(dir.resolve("bk"))) {
      fill(kv, PACE_KEYS);
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong copiedAt = new AtomicLong(System.currentTimeMillis());
      AtomicLong copies = new AtomicLong();
      Thread follower = new Thread(() -> {
        while (running.get()) {
          backup.takeIfChanged(reader.engine()).ifPresent(s -> {
            copiedAt.set(s.time().toEpochMilli());
            copies.incrementAndGet();
          });
          sleep(50);
        }
      }, "backup");
      follower.start();
      List<Long> lags = new ArrayList<>();
      double followed = commitFor(kv, seconds, () -> lags.add(
          System.currentTimeMillis() - copiedAt.get()));
      running.set(false);
      follower.join();
      System.out.printf("W1 pace, %d keys, %d s: %.0f commits/s alone, %.0f with a backup"
          + " following (%.2fx); %d copies%n", PACE_KEYS, seconds, alone, followed,
          followed / alone, copies.get());
      System.out.println("backup lag in ms (now minus when the newest copy was read), once a"
          + " second: " + lags);
      int half = lags.size() / 2;
      System.out.printf("largest lag: first half %d, second half %d%n",
          lags.subList(0, half).stream().mapToLong(Long::longValue).max().orElse(0),
          lags.subList(half, lags.size()).stream().mapToLong(Long::longValue).max().orElse(0));
    }
  }

  /** Single-key sets for {@code seconds}; {@code everySecond} runs once a second. */
  private static double commitFor(Kv kv, int seconds, Runnable everySecond) {
    Random random = new Random(1);
    long start = System.nanoTime();
    long nextSample = start + 1_000_000_000L;
    long end = start + seconds * 1_000_000_000L;
    long commits = 0;
    for (long now = start; now < end; now = System.nanoTime()) {
      kv.set(KvKey.of("user", random.nextInt(PACE_KEYS)), "value " + commits);
      commits++;
      if (now >= nextSample) {
        everySecond.run();
        nextSample += 1_000_000_000L;
      }
    }
    return commits / ((System.nanoTime() - start) / 1e9);
  }

  /** The full copy and one-key copies at {@code n} entries; returns median bytes per copy. */
  private static double sizes(Path dir, int n, boolean largest) throws Exception {
    Files.createDirectories(dir);
    Random random = new Random(n);
    try (Kv kv = Kv.open(dir.resolve("db.sqlite3").toString());
        Backup backup = Backup.open(dir.resolve("bk"))) {
      fill(kv, n);
      long t0 = System.nanoTime();
      Backup.Snapshot full = backup.take(kv.engine()).orElseThrow();
      double fullSeconds = (System.nanoTime() - t0) / 1e9;
      long[] bytes = new long[ONE_KEY_COPIES];
      long copyNanos = 0;
      for (int i = 0; i < ONE_KEY_COPIES; i++) {
        kv.set(KvKey.of("user", random.nextInt(n)), "changed " + i);
        long t = System.nanoTime();
        bytes[i] = backup.take(kv.engine()).orElseThrow().bytes();
        copyNanos += System.nanoTime() - t;
      }
      Arrays.sort(bytes);
      double median = bytes[ONE_KEY_COPIES / 2];
      System.out.printf("%-10d %14d %10.1f %16.0f %14.0f%n", n, full.bytes(), fullSeconds,
          median, copyNanos / 1e6 / ONE_KEY_COPIES);
      if (largest) {
        replicateAndRestore(dir, kv, backup, n, random);
      }
      return median;
    }
  }

  private static void replicateAndRestore(Path dir, Kv kv, Backup backup, int n, Random random)
      throws IOException {
    long t0 = System.nanoTime();
    Replication.Result full = Replication.replicate(dir.resolve("bk"), dir.resolve("replica"));
    double fullSeconds = (System.nanoTime() - t0) / 1e9;
    int changed = n / 100;
    Fill.inBatches(kv, changed, i -> KvKey.of("user", random.nextInt(n)),
        i -> "one percent " + i);
    backup.take(kv.engine()).orElseThrow();
    t0 = System.nanoTime();
    Replication.Result delta = Replication.replicate(dir.resolve("bk"), dir.resolve("replica"));
    double deltaSeconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("%nreplicate %d entries: full %d blocks, %d bytes, %.1f s;"
        + " after %d keys (1%%) changed: %d blocks (%.1f%%), %d bytes (%.1f%%), %.2f s%n",
        n, full.blocks(), full.bytes(), fullSeconds, changed, delta.blocks(),
        100.0 * delta.blocks() / full.blocks(), delta.bytes(), 100.0 * delta.bytes()
            / full.bytes(), deltaSeconds);
    t0 = System.nanoTime();
    PointInTime.Restored restored;
    try (Kv target = Kv.open(dir.resolve("restored.sqlite3").toString())) {
      restored = PointInTime.restore(dir.resolve("bk"), null, target.engine());
    }
    double restoreSeconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("restore %d entries into a new SQLite file: %.1f s, %.0f entries/s%n",
        restored.entries(), restoreSeconds, restored.entries() / restoreSeconds);
  }

  /** {@code n} entries ["user", i] of about 60 bytes. */
  private static void fill(Kv kv, int n) {
    Fill.inBatches(kv, n, i -> KvKey.of("user", i),
        i -> "a value of some length for user number " + i);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
