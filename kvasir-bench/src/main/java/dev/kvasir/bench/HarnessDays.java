package dev.kvasir.bench;

import dev.kvasir.bench.chart.PanelChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Draws the harness's ratios day by day, one panel per column, from the record kept in {@code
 * docs/data/harness-days.csv} (docs/performance.md §5): a header {@code day,W1,…}, an optional
 * {@code target} row, then one row per day numbered from 1. Each column is a ratio to the
 * floor, or to Deno where its name says so. An empty cell is a ratio that day's run did not
 * measure, or a column without a target.
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.HarnessDays
 *     docs/data/harness-days.csv docs/images/harness-days.svg</pre>
 */
public final class HarnessDays {
  private HarnessDays() {}

  /** The record as read: the columns' names, their targets and each day's ratios. */
  record Record(List<String> columns, double[] targets, List<double[]> days) {
    PanelChart chart() {
      PanelChart chart = new PanelChart("Kvasir's median rate over the sqlite-jdbc floor's (or"
          + " Deno's, where named), one harness run a day", "day");
      for (int w = 0; w < columns.size(); w++) {
        List<Double> values = new ArrayList<>();
        for (double[] day : days) {
          values.add(day[w]);
        }
        chart.add(new PanelChart.Panel(columns.get(w), values, targets[w]));
      }
      return chart;
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: HarnessDays RECORD.csv OUT.svg");
      System.exit(2);
    }
    Record record;
    try {
      record = parse(Files.readAllLines(Path.of(args[0])));
    } catch (IllegalArgumentException e) {
      System.err.println(args[0] + ": " + e.getMessage());
      System.exit(1);
      return;
    }
    Files.writeString(Path.of(args[1]), record.chart().svg());
  }

  /** Reads the record; a malformed line is an error naming its number, never skipped. */
  static Record parse(List<String> lines) {
    List<String> columns = null;
    double[] targets = null;
    List<double[]> days = new ArrayList<>();
    for (int n = 1; n <= lines.size(); n++) {
      String line = lines.get(n - 1).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split(",", -1);
      if (columns == null) {
        if (!cells[0].equals("day") || cells.length < 2) {
          throw new IllegalArgumentException("line " + n + ": expected the header day,W1,…");
        }
        columns = List.of(Arrays.copyOfRange(cells, 1, cells.length));
        continue;
      }
      if (cells.length != columns.size() + 1) {
        throw new IllegalArgumentException("line " + n + ": " + cells.length
            + " cells where the header has " + (columns.size() + 1));
      }
      double[] values = new double[columns.size()];
      for (int w = 0; w < values.length; w++) {
        values[w] = cell(cells[w + 1], n);
      }
      if (cells[0].equals("target")) {
        if (targets != null || !days.isEmpty()) {
          throw new IllegalArgumentException("line " + n + ": one target row, before the days");
        }
        targets = values;
      } else if (cells[0].equals(Integer.toString(days.size() + 1))) {
        days.add(values);
      } else {
        throw new IllegalArgumentException("line " + n + ": expected day " + (days.size() + 1)
            + ", found " + cells[0]);
      }
    }
    if (columns == null || days.isEmpty()) {
      throw new IllegalArgumentException("no header or no days");
    }
    if (targets == null) {
      targets = new double[columns.size()];
      Arrays.fill(targets, Double.NaN);
    }
    return new Record(columns, targets, days);
  }

  private static double cell(String cell, int line) {
    if (cell.isBlank()) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(cell.strip());
      if (v >= 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below with the line
    }
    throw new IllegalArgumentException("line " + line + ": not a ratio: " + cell);
  }
}
