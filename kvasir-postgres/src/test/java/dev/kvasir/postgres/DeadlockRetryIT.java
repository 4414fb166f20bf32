package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.testkit.Blocking;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL breaks a deadlock by aborting one transaction; when that is the writer's, the
 * commit runs again by itself and the caller sees only success.
 */
class DeadlockRetryIT {
  @Test
  void writerChosenAsDeadlockVictim_retriesTransparently() throws Exception {
    String schema = TestPostgres.freshSchema("deadlock");
    try (Kv kv = Kv.open(TestPostgres.url() + "?schema=" + schema);
        Connection admin = TestPostgres.admin()) {
      kv.set(KvKey.of("contended"), "before");
      admin.setAutoCommit(false);
      try (Statement s = admin.createStatement()) {
        s.execute("select 1 from " + schema + ".kv for update"); // the row the writer needs
      }
      // The writer takes the commit-order lock, then waits for the row.
      CompletableFuture<CommitResult> commit =
          Blocking.call(() -> kv.set(KvKey.of("contended"), "after"));
      TestPostgres.awaitKvasirWaitingForALock(admin);
      // Now wait for the writer's lock: a cycle. The writer waited first, so its deadlock
      // check runs first and aborts its own transaction; this statement then succeeds.
      try (Statement s = admin.createStatement()) {
        s.execute("select version from " + schema + ".data_version for update");
      }
      admin.commit();
      CommitResult result = commit.get(30, TimeUnit.SECONDS);
      assertThat(result.ok()).isTrue();
      assertThat(kv.get(KvKey.of("contended")).value()).isEqualTo("after");
    }
  }
}
