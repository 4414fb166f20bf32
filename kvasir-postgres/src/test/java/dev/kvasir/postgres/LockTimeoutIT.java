package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Mutation;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.value.EncodedValue;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A role or database with {@code lock_timeout} or {@code statement_timeout} set (as a DBA may,
 * so that nothing waits for long): a commit that waits for the commit-order lock longer than
 * that, behind another instance's, is cancelled by the server (55P03, 57014) having applied
 * nothing. It failed at once with a plain {@code KvException}, a 500 from {@code kvasir serve};
 * it is now retried until the lock comes free.
 */
class LockTimeoutIT {
  @ParameterizedTest
  @ValueSource(strings = {"lock_timeout", "statement_timeout"})
  void aCommitCancelledWhileWaitingForAnotherInstance_runsAgain(String setting)
      throws Exception {
    int[] n = {0};
    BiConsumer<Kv, String> plain = (kv, value) -> kv.set(KvKey.of("k"), value);
    BiConsumer<Kv, String> keyed = (kv, value) -> kv.engine().atomicWrite(new AtomicWrite(
        List.of(), List.of(new Mutation.Set(KvKey.of("k").raw(), EncodedValue.of(value), null)),
        List.of()).withIdempotencyKey("write-" + n[0]++));
    String schema = TestPostgres.freshSchema("timeout");
    try (Kv kv = Kv.open(TestPostgres.url() + "?schema=" + schema + "&options=-c%20" + setting
        + "%3D100");
        Connection admin = TestPostgres.admin()) {
      for (BiConsumer<Kv, String> write : List.of(plain, keyed)) {
        write.accept(kv, "before");
        admin.setAutoCommit(false);
        try (Statement s = admin.createStatement()) {
          // What another instance's commit holds while it runs.
          s.execute("select version from " + schema + ".data_version for update");
        }
        CompletableFuture<Void> commit = Blocking.run(
            () -> write.accept(kv, "after"));
        Thread.sleep(500); // several times the timeout
        admin.commit();
        commit.get(30, TimeUnit.SECONDS);
        assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("after");
      }
    }
  }
}
