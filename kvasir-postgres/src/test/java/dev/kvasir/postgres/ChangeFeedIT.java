package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Watches across instances through LISTEN/NOTIFY, and what happens when that connection drops. */
class ChangeFeedIT {
  @Test
  void anotherInstancesWrite_wakesTheWatcher_andUnrelatedWritesDoNot() throws Exception {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("feed");
    try (Kv watcher = Kv.open(url); Kv writer = Kv.open(url);
        WatchStream watch = watcher.watch(List.of(KvKey.of("watched")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      CompletableFuture<List<KvEntry>> next = CompletableFuture.supplyAsync(watch::next);
      writer.set(KvKey.of("unrelated"), 1);
      writer.set(KvKey.of("watched"), "from the other instance");
      assertThat(next.get(30, TimeUnit.SECONDS).get(0).value())
          .isEqualTo("from the other instance");
    }
  }

  @Test
  void listeningConnectionKilled_writeMeanwhile_isStillSeen() throws Exception {
    String schema = TestPostgres.freshSchema("feed");
    String url = TestPostgres.url() + "?schema=" + schema;
    try (Kv watcher = Kv.open(url); Kv writer = Kv.open(url);
        WatchStream watch = watcher.watch(List.of(KvKey.of("watched")));
        Connection admin = TestPostgres.admin()) {
      assertThat(watch.next().get(0).exists()).isFalse();
      awaitListening(admin, schema);
      // Cut the listener and write at once: the notification goes nowhere. The watcher must
      // read again when it reconnects.
      try (Statement s = admin.createStatement()) {
        s.execute("select pg_terminate_backend(pid) from pg_stat_activity"
            + " where query = 'listen kvasir_" + schema + "'");
      }
      writer.set(KvKey.of("watched"), "written while nobody listened");
      CompletableFuture<KvEntry> seen = CompletableFuture.supplyAsync(() -> {
        List<KvEntry> state = watch.next();
        while (!state.get(0).exists()) {
          state = watch.next(); // a re-read before the write is allowed; missing it is not
        }
        return state.get(0);
      });
      assertThat(seen.get(30, TimeUnit.SECONDS).value())
          .isEqualTo("written while nobody listened");
    }
  }

  private static void awaitListening(Connection admin, String schema) throws Exception {
    for (int i = 0; i < 500; i++) {
      try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery(
          "select count(*) from pg_stat_activity where query = 'listen kvasir_" + schema + "'")) {
        r.next();
        if (r.getInt(1) > 0) {
          return;
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the watcher never listened");
  }
}
