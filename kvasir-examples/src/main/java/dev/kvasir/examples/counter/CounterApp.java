package dev.kvasir.examples.counter;

import dev.kvasir.Kv;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Counts 1000 page views with 100 increments outstanding at a time and prints the total:
 * {@code java … dev.kvasir.examples.counter.CounterApp [counters.sqlite3]}.
 */
public final class CounterApp {
  private CounterApp() {}

  public static void main(String[] args) {
    String path = args.length > 0 ? args[0] : "counters.sqlite3";
    try (Kv kv = Kv.open(path)) {
      Counters counters = new Counters(kv);
      long before = counters.get("views");
      for (int round = 0; round < 10; round++) {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          pending.add(counters.incrementAsync("views"));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
      }
      counters.recordPeak("views-per-run", counters.get("views") - before);
      System.out.println("views: " + counters.get("views") + " (peak per run "
          + counters.peak("views-per-run") + ")");
    }
  }
}
