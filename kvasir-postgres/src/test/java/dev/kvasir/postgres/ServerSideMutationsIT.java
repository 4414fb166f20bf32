package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.value.KvU64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * u64 sums, minimums, maximums and versionstamped keys done on the server, in the one round trip
 * of a pipelined group commit (Pipeline): failures stay with their own write, and other
 * instances hear of versionstamped keys.
 */
class ServerSideMutationsIT {
  @Test
  void concurrentSums_theOnesOnAString_failAlone_andEveryOtherOneCounts() throws Exception {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("u64");
    int threads = 32;
    int perThread = 40;
    try (Kv kv = Kv.open(url)) {
      kv.set(KvKey.of("text"), "not a number");
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<int[]>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        boolean poisoned = t % 4 == 0;
        results.add(pool.submit(() -> {
          int ok = 0;
          int refused = 0;
          for (int i = 0; i < perThread; i++) {
            var write = kv.atomic().sum(KvKey.of("count"), 1).max(KvKey.of("top"), i)
                .min(KvKey.of("low"), 1000 - i);
            if (poisoned) {
              write.sum(KvKey.of("text"), 1);
            }
            try {
              write.commit();
              ok++;
            } catch (KvTypeException e) {
              assertThat(e).hasMessage(
                  "Failed to perform 'sum' mutation on a non-U64 value in the database");
              refused++;
            }
          }
          return new int[] {ok, refused};
        }));
      }
      int ok = 0;
      int refused = 0;
      for (Future<int[]> f : results) {
        int[] r = f.get(120, TimeUnit.SECONDS);
        ok += r[0];
        refused += r[1];
      }
      pool.shutdown();
      assertThat(refused).isEqualTo(threads / 4 * perThread);
      assertThat(ok).isEqualTo(threads * perThread - refused);
      assertThat(kv.get(KvKey.of("count")).value()).isEqualTo(KvU64.of(ok));
      assertThat(kv.get(KvKey.of("top")).value()).isEqualTo(KvU64.of(perThread - 1));
      assertThat(kv.get(KvKey.of("low")).value()).isEqualTo(KvU64.of(1000 - perThread + 1));
      assertThat(kv.get(KvKey.of("text")).value()).isEqualTo("not a number");
    }
  }

  @Test
  void aVersionstampedKeyWrittenByAnotherInstance_wakesItsWatcher() throws Exception {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("stamped");
    try (Kv watcher = Kv.open(url); Kv writer = Kv.open(url)) {
      CommitResult first = writer.atomic().setVersionstamped(KvKey.of("log"), "first").commit();
      // The next commit's version is 1 to 9 above this one: watch every key it could write.
      List<KvKey> candidates = new ArrayList<>();
      for (int step = 1; step <= 9; step++) {
        Versionstamp next = Versionstamp.ofVersion(first.versionstamp().version() + step);
        candidates.add(KvKey.of("log", next.toString()));
      }
      try (WatchStream watch = watcher.watch(candidates)) {
        assertThat(watch.next()).noneMatch(KvEntry::exists);
        CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
        CommitResult second =
            writer.atomic().setVersionstamped(KvKey.of("log"), "second").commit();
        List<KvEntry> seen = next.get(30, TimeUnit.SECONDS);
        assertThat(seen).filteredOn(KvEntry::exists).singleElement()
            .satisfies(e -> assertThat(e.value()).isEqualTo("second"))
            .satisfies(e -> assertThat(e.versionstamp()).isEqualTo(second.versionstamp()));
      }
    }
  }
}
