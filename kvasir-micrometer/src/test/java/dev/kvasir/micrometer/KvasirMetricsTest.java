package dev.kvasir.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meters a database reports, checked against what the test did to it. */
class KvasirMetricsTest {
  @TempDir Path dir;

  @Test
  void commits_checks_andOpenWatches_areCounted_withTheGivenTags() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Kv kv = Kv.open(":memory:")) {
      new KvasirMetrics(kv, Tags.of("db", "test")).bindTo(registry);
      for (int i = 0; i < 3; i++) {
        kv.set(KvKey.of("k", i), i);
      }
      var stale = kv.get(KvKey.of("k", 0));
      kv.set(KvKey.of("k", 0), "changed");
      assertThat(kv.atomic().check(stale).set(KvKey.of("k", 0), "lost").commit().ok()).isFalse();
      var watch = kv.watch(List.of(KvKey.of("k", 1)));
      assertThat(registry.get("kvasir.commits").tags("outcome", "committed", "db", "test")
          .counter().count()).isEqualTo(4);
      assertThat(registry.get("kvasir.commits").tags("outcome", "check_failed").counter()
          .count()).isEqualTo(1);
      assertThat(registry.get("kvasir.watches.open").gauge().value()).isEqualTo(1);
      watch.close();
      assertThat(registry.get("kvasir.watches.open").gauge().value()).isZero();
    }
  }

  @Test
  void closingTheDatabase_removesItsMeters_soThatItOpenedAgainUnderTheSameTagsIsMeasured()
      throws Exception {
    String file = dir.resolve("reopened.sqlite3").toString();
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Kv kv = Kv.open(file)) {
      new KvasirMetrics(kv, Tags.of("db", "app")).bindTo(registry);
      kv.set(KvKey.of("k"), 1);
    }
    assertThat(registry.getMeters()).as("the closed database's").isEmpty();
    try (Kv kv = Kv.open(file)) {
      new KvasirMetrics(kv, Tags.of("db", "app")).bindTo(registry);
      kv.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
      try (var watch = kv.watch(List.of(KvKey.of("k")))) {
        // Before, these read the closed database: 0 watches, 0 messages, for good.
        assertThat(registry.get("kvasir.watches.open").gauge().value()).isEqualTo(1);
        await(() -> registry.get("kvasir.engine.queue.messages").tag("state", "delayed")
            .gauge().value(), 1);
      }
    }
  }

  @Test
  void closingTheBinder_ofAnEngineWithoutAKv_removesItsMeters() throws Exception {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(
        dir.resolve("bare.sqlite3").toString()))) {
      KvasirMetrics metrics = new KvasirMetrics(engine, Tags.of("db", "bare"));
      metrics.bindTo(registry);
      assertThat(registry.getMeters()).isNotEmpty();
      metrics.close();
      assertThat(registry.getMeters()).as("meters reading the engine").isEmpty();
      metrics.close(); // idempotent
    }
  }

  @Test
  void sqlite_groupCommits_queue_wal_andSweeps_reachTheRegistry() throws Exception {
    String file = dir.resolve("metered.sqlite3").toString();
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Kv kv = Kv.open(file)) {
      kv.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
      kv.enqueue("now");
      new KvasirMetrics(kv).bindTo(registry);

      // Queue depth, read when bound and every 5 s.
      await(() -> registry.get("kvasir.engine.queue.messages").tag("state", "delayed").gauge()
          .value(), 1);
      await(() -> registry.get("kvasir.engine.queue.messages").tag("state", "ready").gauge()
          .value(), 1);
      assertThat(registry.get("kvasir.engine.queue.oldest.ready.seconds").gauge().value())
          .isPositive();

      // Group commits: 8 writers at once share transactions.
      List<CompletableFuture<Void>> writers = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        int id = w;
        writers.add(CompletableFuture.runAsync(() -> {
          for (int i = 0; i < 50; i++) {
            kv.set(KvKey.of("w", id, i), new byte[64 * 1024]); // 25 MB: the log starts over
          }
        }));
      }
      writers.forEach(CompletableFuture::join);
      var batches = registry.get("kvasir.engine.commit.batch.size").summary();
      assertThat(batches.totalAmount()).isGreaterThanOrEqualTo(400);
      assertThat(batches.count()).isLessThanOrEqualTo((long) batches.totalAmount());
      assertThat(registry.get("kvasir.sqlite.wal.size.bytes").gauge().value()).isPositive();
      assertThat(registry.get("kvasir.sqlite.wal.checkpoints").functionCounter().count())
          .isGreaterThanOrEqualTo(1);

      // An expired entry: one sweep deletes it.
      kv.set(KvKey.of("short"), "lived", Duration.ofMillis(50));
      await(() -> registry.get("kvasir.engine.swept.entries").counter().count(), 1);
      assertThat(registry.get("kvasir.engine.sweeps").tag("outcome", "done").counter().count())
          .isGreaterThanOrEqualTo(1);
    }
  }

  /** Waits up to 10 s for {@code reading} to reach at least {@code wanted}. */
  private static void await(DoubleSupplier reading, double wanted) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (reading.getAsDouble() < wanted && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(reading.getAsDouble()).isGreaterThanOrEqualTo(wanted);
  }
}
