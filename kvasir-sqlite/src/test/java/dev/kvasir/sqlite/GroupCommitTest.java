package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.Versionstamp;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits that share one transaction stay independent: own versions, own failures. */
class GroupCommitTest {
  @TempDir Path dir;

  @Test
  void concurrentCommits_withSomeFailing_eachCommitsOrFailsAlone() throws Exception {
    long newest;
    try (Kv kv = Kv.open(dir.resolve("g.sqlite3").toString())) {
      kv.set(KvKey.of("text"), "not a number");
      ExecutorService pool = Executors.newFixedThreadPool(16);
      List<Future<Object>> results = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        int n = i;
        results.add(pool.submit(() -> {
          try {
            return kv.atomic().set(KvKey.of("ok", n), n).sum(
                n % 4 == 0 ? KvKey.of("text") : KvKey.of("sum", n), 1).commit();
          } catch (KvTypeException e) {
            return e;
          }
        }));
      }
      Set<Versionstamp> stamps = new HashSet<>();
      for (int i = 0; i < results.size(); i++) {
        Object r = results.get(i).get();
        if (i % 4 == 0) {
          assertThat(r).isInstanceOf(KvTypeException.class);
          assertThat(kv.get(KvKey.of("ok", i)).exists()).as("failed commit %d left a write", i)
              .isFalse();
        } else {
          assertThat(((CommitResult) r).ok()).isTrue();
          assertThat(stamps.add(((CommitResult) r).versionstamp())).isTrue();
          assertThat(kv.get(KvKey.of("ok", i)).versionstamp())
              .isEqualTo(((CommitResult) r).versionstamp());
        }
      }
      pool.shutdown();
      assertThat(stamps).hasSize(300);
      // Bumps after the first of a group are written once, at commit: the file must hold the
      // newest version, or the next process would hand out versionstamps again.
      newest = Collections.max(stamps).version();
      assertThat(fileVersion()).isEqualTo(newest);
    }
    try (Kv kv = Kv.open(dir.resolve("g.sqlite3").toString())) {
      assertThat(kv.set(KvKey.of("after"), 1).versionstamp().version()).isGreaterThan(newest);
    }
  }

  private long fileVersion() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("g.sqlite3"));
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select version from data_version where k = 0")) {
      r.next();
      return r.getLong(1);
    }
  }
}
