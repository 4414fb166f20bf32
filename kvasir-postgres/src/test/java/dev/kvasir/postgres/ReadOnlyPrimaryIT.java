package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A failover seen from the engine (docs/postgres.md §4): its connections drop, and the new ones
 * reach a server that refuses writes (a standby, or a demoted primary), until a writable one
 * takes over. Commits meanwhile fail as unavailable, having applied nothing; afterwards the
 * engine writes again by itself, rather than keep the read-only sessions it opened meanwhile.
 */
class ReadOnlyPrimaryIT {
  @Test
  void aServerThatRefusesWrites_failsCommitsAsUnavailable_andTheEngineRecovers()
      throws Exception {
    String database = TestPostgres.freshSchema("readonly");
    try (Connection admin = TestPostgres.admin(); Statement s = admin.createStatement()) {
      s.execute("create database " + database);
      String server = TestPostgres.url();
      String url = server.substring(0, server.lastIndexOf('/') + 1) + database
          + "?retryTimeoutMs=1500";
      try (Kv kv = Kv.open(url)) {
        kv.set(KvKey.of("k"), "before");

        s.execute("alter database " + database + " set default_transaction_read_only = on");
        s.execute("select pg_terminate_backend(pid) from pg_stat_activity where datname = '"
            + database + "'");
        assertThatThrownBy(() -> kv.set(KvKey.of("k"), "during"))
            .isInstanceOfSatisfying(KvUnavailableException.class,
                e -> assertThat(e.maybeApplied()).isFalse())
            .hasMessageContaining("read-only transaction");

        s.execute("alter database " + database + " reset default_transaction_read_only");
        kv.set(KvKey.of("k"), "after");
        assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("after");
      }
    }
  }
}
