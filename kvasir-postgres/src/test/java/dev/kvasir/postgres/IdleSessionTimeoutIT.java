package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Mutation;
import dev.kvasir.value.EncodedValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A server that ends idle sessions ({@code idle_session_timeout}, which a DBA may set for a role
 * or a database): the writer keeps its connection between commits, so the first commit after a
 * quiet spell meets a session the server has ended. That commit failed with PostgreSQL's
 * "terminating connection due to idle-session timeout" when it ran as an interactive
 * transaction (a write with an idempotency key: every Java client's write through {@code
 * kvasir serve}), which the server answered 500. It is now run again on a new connection.
 */
class IdleSessionTimeoutIT {
  private static final long TIMEOUT_MS = 300;

  @Test
  void commitsAfterTheServerEndedTheWritersIdleSession_succeed() throws Exception {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("idle")
        + "&options=-c%20idle_session_timeout%3D" + TIMEOUT_MS;
    try (Kv kv = Kv.open(url)) {
      for (int i = 0; i < 3; i++) {
        kv.set(KvKey.of("plain"), i);
        Thread.sleep(3 * TIMEOUT_MS);
        kv.engine().atomicWrite(new AtomicWrite(List.of(), List.of(new Mutation.Set(
            KvKey.of("keyed").raw(), EncodedValue.of(i), null)), List.of())
            .withIdempotencyKey("write-" + i));
        Thread.sleep(3 * TIMEOUT_MS);
      }
      assertThat(kv.get(KvKey.of("plain")).value()).isEqualTo(2.0);
      assertThat(kv.get(KvKey.of("keyed")).value()).isEqualTo(2.0);
    }
  }
}
