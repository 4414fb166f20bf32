package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.bench.chart.LineChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * How Kvasir's costs grow with the database (issue 24's scaling curve): for each size, a fresh
 * database filled with the harness's {@code ["bench", i]} entries, then
 *
 * <ul>
 *   <li><b>open</b>: closing and opening it again, with the first read;
 *   <li><b>W1</b>: single-key commits on random existing keys;
 *   <li><b>W2</b>: random gets;
 *   <li><b>floor W2</b> (SQLite only): the same number of random gets on the same file through
 *       plain sqlite-jdbc, the harness's floor statement on one autocommit connection, after
 *       Kvasir has closed it. What SQLite itself pays as the file grows, so that Kvasir's
 *       growth can be told from the storage's (docs/performance.md §2);
 *   <li><b>W4</b>: lists of 10 000 entries from a random key on (so every size lists as many);
 *   <li><b>heap</b>: the Java heap in use with the database open, after a GC.
 * </ul>
 *
 * A B-tree makes W2 and W4 grow with its depth, the logarithm of the size; W1 is bound by the
 * sync. The SVG shows each rate relative to the smallest size.
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.ScalingBench
 *     [--sizes 10000,1000000] [--postgres postgresql://…] [--postgres-sizes 10000,1000000]
 *     [--svg FILE]</pre>
 */
public final class ScalingBench {
  private static final int W1_COMMITS = 2_000;
  private static final int W2_GETS = 100_000;
  private static final int W4_LISTS = 20;
  private static final int W4_LENGTH = 10_000;

  private ScalingBench() {}

  /** One size's figures. */
  record Row(String engine, int entries, double fillPerSecond, double openMs, double w1,
      double w2, double w4, double heapMb, double floorW2) {
    Row withFloorW2(double gets) {
      return new Row(engine, entries, fillPerSecond, openMs, w1, w2, w4, heapMb, gets);
    }
  }

  public static void main(String[] args) throws Exception {
    int[] sizes = {10_000, 1_000_000};
    String postgres = null;
    int[] postgresSizes = {10_000, 1_000_000};
    Path svg = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sizes" -> sizes = ints(args[++i]);
        case "--postgres" -> postgres = args[++i];
        case "--postgres-sizes" -> postgresSizes = ints(args[++i]);
        case "--svg" -> svg = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    List<Row> rows = new ArrayList<>();
    Path work = Files.createTempDirectory("kvasir-scaling");
    try {
      System.out.printf("%-9s %11s %11s %9s %10s %10s %12s %8s %12s%n", "engine", "entries",
          "fill/s", "open ms", "W1 c/s", "W2 gets/s", "W4 entries/s", "heap MB",
          "floor gets/s");
      measure("warm-up", 10_000, work.resolve("warm-up.sqlite3").toString()); // JIT, untimed
      for (int n : sizes) {
        String file = work.resolve("scale-" + n + ".sqlite3").toString();
        rows.add(print(measure("SQLite", n, file)));
      }
      if (postgres != null) {
        try (TempSchema warmUp = new TempSchema(postgres, "warm_up")) {
          measure("warm-up", 10_000, warmUp.url()); // its own code paths, untimed
        }
        for (int n : postgresSizes) {
          try (TempSchema schema = new TempSchema(postgres, "scale_" + n)) {
            rows.add(print(measure("PostgreSQL", n, schema.url())));
          }
        }
      }
    } finally {
      Directories.delete(work);
    }
    if (svg != null) {
      write(svg, rows);
      System.out.println("chart: " + svg);
    }
  }

  private static int[] ints(String list) {
    return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
  }

  private static Row print(Row r) {
    System.out.printf("%-9s %11d %11.0f %9.0f %10.0f %10.0f %12.0f %8.0f %12s%n", r.engine(),
        r.entries(), r.fillPerSecond(), r.openMs(), r.w1(), r.w2(), r.w4(), r.heapMb(),
        Double.isNaN(r.floorW2()) ? "-" : String.format("%.0f", r.floorW2()));
    return r;
  }

  private static Row measure(String engine, int n, String location) {
    Random random = new Random(n);
    Row row;
    long t0 = System.nanoTime();
    try (Kv kv = Kv.open(location)) {
      Fill.inBatches(kv, n, i -> KvKey.of("bench", i), Peer::value);
    }
    double fill = n / ((System.nanoTime() - t0) / 1e9);
    t0 = System.nanoTime();
    try (Kv kv = Kv.open(location)) {
      kv.get(KvKey.of("bench", 0));
      double openMs = (System.nanoTime() - t0) / 1e6;

      t0 = System.nanoTime();
      for (int i = 0; i < W1_COMMITS; i++) {
        int r = random.nextInt(n);
        kv.set(KvKey.of("bench", r), Peer.value(r));
      }
      double w1 = W1_COMMITS / ((System.nanoTime() - t0) / 1e9);

      t0 = System.nanoTime();
      for (int i = 0; i < W2_GETS; i++) {
        int r = random.nextInt(n);
        KvEntry e = kv.get(KvKey.of("bench", r));
        if (((Double) ((Map<?, ?>) e.value()).get("i")).intValue() != r) {
          throw new IllegalStateException("W2 read the wrong entry at " + r);
        }
      }
      double w2 = W2_GETS / ((System.nanoTime() - t0) / 1e9);

      long listed = 0;
      t0 = System.nanoTime();
      for (int i = 0; i < W4_LISTS; i++) {
        int from = random.nextInt(Math.max(1, n - W4_LENGTH));
        ListSelector range = ListSelector.prefix(KvKey.of("bench"))
            .withStart(KvKey.of("bench", from));
        for (KvEntry e : kv.list(range, ListOptions.defaults().limit(W4_LENGTH))) {
          ((Map<?, ?>) e.value()).get("i");
          listed++;
        }
      }
      double w4 = listed / ((System.nanoTime() - t0) / 1e9);

      System.gc();
      Runtime rt = Runtime.getRuntime();
      double heapMb = (rt.totalMemory() - rt.freeMemory()) / 1e6;
      row = new Row(engine, n, fill, openMs, w1, w2, w4, heapMb, Double.NaN);
    }
    // Keys of their own draw: any uniform sequence reads as many random leaves.
    return location.contains("://") ? row
        : row.withFloorW2(floorGets(location, n, new Random(n + 1)));
  }

  /** W2 through plain sqlite-jdbc, as the harness's floor reads: gets/s. */
  private static double floorGets(String file, int n, Random random) {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        PreparedStatement get = c.prepareStatement(
            "select v, v_encoding, version from kv where k = ?")) {
      long t0 = System.nanoTime();
      for (int i = 0; i < W2_GETS; i++) {
        get.setBytes(1, KvKey.of("bench", random.nextInt(n)).encode());
        try (ResultSet rs = get.executeQuery()) {
          if (!rs.next() || rs.getBytes(1).length == 0) {
            throw new IllegalStateException("the floor's W2 found no value");
          }
          rs.getInt(2);
          rs.getLong(3);
        }
      }
      return W2_GETS / ((System.nanoTime() - t0) / 1e9);
    } catch (SQLException e) {
      throw new IllegalStateException("the floor's W2 on " + file, e);
    }
  }

  /** One chart: each rate relative to the engine's smallest size (1 = no slower). */
  private static void write(Path svg, List<Row> rows) throws IOException {
    LineChart chart = new LineChart("Rates relative to the smallest database (1 = as fast)",
        "entries (log scale)", "rate ÷ rate at the smallest size", true);
    Map<String, List<Row>> byEngine = new LinkedHashMap<>();
    rows.forEach(r -> byEngine.computeIfAbsent(r.engine(), e -> new ArrayList<>()).add(r));
    byEngine.forEach((engine, list) -> {
      Row first = list.get(0);
      chart.add(series(engine + " W2 gets", list, r -> r.w2() / first.w2()));
      chart.add(series(engine + " W4 list entries", list, r -> r.w4() / first.w4()));
      chart.add(series(engine + " W1 commits", list, r -> r.w1() / first.w1()));
      if (!Double.isNaN(first.floorW2())) {
        chart.add(series(engine + " W2 gets, raw sqlite-jdbc", list,
            r -> r.floorW2() / first.floorW2()));
      }
    });
    Files.writeString(svg, chart.svg());
  }

  private static LineChart.Series series(String label, List<Row> rows,
      java.util.function.ToDoubleFunction<Row> y) {
    List<double[]> points = new ArrayList<>();
    rows.forEach(r -> points.add(new double[] {r.entries(), Math.round(y.applyAsDouble(r) * 100)
        / 100.0}));
    return new LineChart.Series(label, points);
  }
}
