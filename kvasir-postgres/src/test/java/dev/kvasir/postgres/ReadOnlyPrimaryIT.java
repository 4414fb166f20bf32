package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Mutation;
import dev.kvasir.value.EncodedValue;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * A failover seen from the engine (docs/postgres.md §4): its connections drop, and the new ones
 * reach a server that refuses writes (a standby, or a demoted primary), until a writable one
 * takes over. Commits meanwhile fail as unavailable, having applied nothing; afterwards the
 * engine writes again by itself, rather than keep the read-only sessions it opened meanwhile.
 */
class ReadOnlyPrimaryIT {
  /** A write as Kvasir's KV Connect server commits a Java client's: with an idempotency key. */
  private static void idempotentSet(Kv kv, String value, String key) {
    kv.engine().atomicWrite(new AtomicWrite(List.of(), List.of(new Mutation.Set(
        KvKey.of("k").raw(), EncodedValue.of(value), null)), List.of()).withIdempotencyKey(key));
  }

  @Test
  void aServerThatRefusesWrites_failsCommitsAsUnavailable_andTheEngineRecovers()
      throws Exception {
    refuseWritesThenRecover((kv, value) -> kv.set(KvKey.of("k"), value));
  }

  /**
   * The same through the writer's interactive transaction (a write with an idempotency key, a
   * sweep), which changes the session's auto-commit: closing its evicted connection failed
   * inside HikariCP, the writer kept the closed connection, and every commit from then on
   * failed at once with "Connection is closed", after the failover too.
   */
  @Test
  void aServerThatRefusesAnInteractiveCommit_failsItAsUnavailable_andTheEngineRecovers()
      throws Exception {
    int[] n = {0};
    refuseWritesThenRecover((kv, value) -> idempotentSet(kv, value, "write-" + n[0]++));
  }

  private static void refuseWritesThenRecover(BiConsumer<Kv, String> write) throws Exception {
    String database = TestPostgres.freshSchema("readonly");
    try (Connection admin = TestPostgres.admin(); Statement s = admin.createStatement()) {
      s.execute("create database " + database);
      String server = TestPostgres.url();
      String url = server.substring(0, server.lastIndexOf('/') + 1) + database
          + "?retryTimeoutMs=1500";
      try (Kv kv = Kv.open(url)) {
        write.accept(kv, "before");

        s.execute("alter database " + database + " set default_transaction_read_only = on");
        s.execute("select pg_terminate_backend(pid) from pg_stat_activity where datname = '"
            + database + "'");
        assertThatThrownBy(() -> write.accept(kv, "during"))
            .isInstanceOfSatisfying(KvUnavailableException.class,
                e -> assertThat(e.maybeApplied()).isFalse())
            .hasMessageContaining("read-only transaction");

        s.execute("alter database " + database + " reset default_transaction_read_only");
        write.accept(kv, "after");
        assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("after");
      }
    }
  }
}
