package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.value.KvU64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConflictTurnsTest {
  private static final KvKey COUNTER = KvKey.of("counter");

  /**
   * A transaction that met a conflict holds the turn, so its next attempt meets no other
   * transaction of the process: two attempts always suffice. With optimistic retries alone, one
   * thread out of eight could lose 20 times in a row (TransactContentionIT did, once).
   */
  @Test
  void eightThreadsOnOneCounter_commitEveryIncrement_inAtMostTwoAttempts() throws Exception {
    TransactOptions twoAttempts = TransactOptions.defaults().maxAttempts(2);
    try (Kv kv = Kv.open(":memory:")) {
      ExecutorService threads = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(threads.submit(() -> {
          for (int i = 0; i < 500; i++) {
            kv.transact(twoAttempts, tx -> {
              KvEntry e = tx.get(COUNTER);
              long n = e.exists() ? ((Number) e.value()).longValue() : 0;
              Thread.yield(); // between the read and the commit, where others slip in
              tx.set(COUNTER, n + 1);
              return null;
            });
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      threads.shutdown();
      assertThat(((Number) kv.get(COUNTER).value()).longValue()).isEqualTo(4000);
    }
  }

  @Test
  void aTransactionInsideAnother_runsWithoutWaitingForATurn() {
    try (Kv kv = Kv.open(":memory:")) {
      String inner = kv.transact(outer -> {
        outer.get(KvKey.of("a"));
        return kv.transact(tx -> {
          tx.sum(KvKey.of("b"), KvU64.of(1));
          return "inner committed";
        });
      });
      assertThat(inner).isEqualTo("inner committed");
      assertThat(kv.get(KvKey.of("b")).value()).isEqualTo(KvU64.of(1));
    }
  }
}
