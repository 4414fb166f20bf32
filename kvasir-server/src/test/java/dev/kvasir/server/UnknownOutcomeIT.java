package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.value.KvU64;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A commit that fails in a way that may nevertheless have applied it (docs/kv-connect.md §9).
 * The server answered 503, which Deno retries: a sum whose connection broke while committing was
 * applied twice. Deno sends no idempotency key, so it is now told 409 and raises the error;
 * Kvasir's client sends one, so its retry is answered from the commit's record instead.
 */
class UnknownOutcomeIT {
  @TempDir Path dir;

  @ParameterizedTest(name = "the engine commits without waiting: {0}")
  @ValueSource(booleans = {false, true})
  void aCommitThatMayHaveBeenApplied_isRaisedByDeno_notRetriedAndAppliedTwice(
      boolean withoutWaiting) throws Exception {
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"))
        .env("DENO_KV_ACCESS_TOKEN", Served.TOKEN);
    try (Kv stored = Kv.of(new LostCommitAnswers(1, withoutWaiting));
        KvServer server = KvServer.builder(stored.engine()).accessToken(Served.TOKEN).port(0)
            .start()) {
      assertThat(deno.run("unknown_outcome.ts", server.url())).startsWith("error: ")
          .contains("409").contains("The outcome of this commit is unknown")
          .contains("the connection broke while committing");
      assertThat(stored.get(KvKey.of("n")).value()).as("applied once")
          .isEqualTo(KvU64.of(1));

      assertThat(deno.run("unknown_outcome.ts", server.url())).isEqualTo("committed");
      assertThat(stored.get(KvKey.of("n")).value()).isEqualTo(KvU64.of(2));
    }
  }

  @Test
  void kvasirsClient_retriesWithItsIdempotencyKey_andTheSumIsAppliedOnce() {
    try (Kv stored = Kv.of(new LostCommitAnswers(1, true));
        KvServer server = KvServer.builder(stored.engine()).accessToken(Served.TOKEN).port(0)
            .start();
        Kv client = Kv.of(RemoteEngine.open(RemoteConfig.from(server.url(),
            KvOptions.defaults().with("accessToken", Served.TOKEN))))) {
      assertThat(client.sum(KvKey.of("n"), 1).ok()).isTrue();
      assertThat(stored.get(KvKey.of("n")).value()).isEqualTo(KvU64.of(1));
    }
  }
}
