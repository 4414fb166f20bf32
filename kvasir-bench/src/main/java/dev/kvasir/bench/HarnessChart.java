package dev.kvasir.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kvasir.bench.chart.BarChart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Renders the shared harness's JSON ({@code run.sh --out results.json}) as an SVG bar chart:
 * for every workload, each peer's median rate as a multiple of the baseline peer's (the run's
 * {@code --baseline}).
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.HarnessChart results.json
 *     docs/images/harness.svg</pre>
 */
public final class HarnessChart {
  private HarnessChart() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: HarnessChart RESULTS.json OUT.svg");
      System.exit(2);
    }
    JsonNode results = new ObjectMapper().readTree(Path.of(args[0]).toFile());
    String baseline = results.path("harness").path("baseline").asText();
    List<String> workloads = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (Iterator<String> it = results.path("summary").fieldNames(); it.hasNext(); ) {
      String w = it.next();
      workloads.add(w);
      labels.add(w + " " + results.path("summary").path(w).path("name").asText());
    }
    BarChart chart = new BarChart("Median rate as a multiple of " + baseline + " ("
        + results.path("harness").path("rounds").asText() + " interleaved rounds)",
        "× " + baseline + " (log scale)", labels);
    for (Iterator<String> it = results.path("peers").fieldNames(); it.hasNext(); ) {
      String peer = it.next();
      double[] ratios = new double[workloads.size()];
      for (int i = 0; i < workloads.size(); i++) {
        JsonNode cell = results.path("summary").path(workloads.get(i)).path("peers").path(peer);
        ratios[i] = cell.has("ratio_vs_baseline") ? cell.get("ratio_vs_baseline").asDouble()
            : Double.NaN;
      }
      chart.add(peer, ratios);
    }
    Files.writeString(Path.of(args[1]), chart.svg());
  }
}
