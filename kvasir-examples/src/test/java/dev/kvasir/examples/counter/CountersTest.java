package dev.kvasir.examples.counter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CountersTest {
  @TempDir
  Path dir;

  @Test
  void countsEveryIncrementFromThreadsAndFutures() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("counters.sqlite3").toString())) {
      Counters counters = new Counters(kv);
      ExecutorService threads = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(threads.submit(() -> {
          for (int i = 0; i < 250; i++) {
            counters.increment("views");
          }
        }));
      }
      List<CompletableFuture<Void>> pending = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        pending.add(counters.incrementAsync("views"));
      }
      for (Future<?> f : done) {
        f.get();
      }
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
      threads.shutdown();

      assertThat(counters.get("views")).isEqualTo(8 * 250 + 1000);
    }
  }

  @Test
  void decrementsAndKeepsPeaks() {
    try (Kv kv = Kv.open(dir.resolve("counters.sqlite3").toString())) {
      Counters counters = new Counters(kv);
      assertThat(counters.get("online")).isZero();
      counters.increment("online");
      counters.increment("online");
      counters.decrement("online");
      counters.recordPeak("online", 5);
      counters.recordPeak("online", 3);

      assertThat(counters.get("online")).isEqualTo(1);
      assertThat(counters.peak("online")).isEqualTo(5);
    }
  }

  @Test
  void theAppCountsAThousandViewsARun() {
    String path = dir.resolve("app.sqlite3").toString();
    CounterApp.main(new String[] {path});
    CounterApp.main(new String[] {path});

    try (Kv kv = Kv.open(path)) {
      Counters counters = new Counters(kv);
      assertThat(counters.get("views")).isEqualTo(2000);
      assertThat(counters.peak("views-per-run")).isEqualTo(1000);
    }
  }
}
