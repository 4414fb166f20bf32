package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.QueueListener;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.RemoteException;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.value.KvU64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several tokens on one server: a read-only one and one limited to {@code ["users"]} try every
 * kind of write (enqueues included), a read outside their reach and taking queue messages; each
 * is refused with 403 and changes nothing.
 */
class ScopedTokensTest {
  private static final String ADMIN = "admin-token-0123456789";
  private static final String READER = "reader-token-0123456789";
  private static final String USERS = "users-token-0123456789";

  private final AtomicReference<List<AccessToken>> tokens = new AtomicReference<>(List.of(
      AccessToken.full(ADMIN),
      new AccessToken(READER, true, List.of()),
      new AccessToken(USERS, false, List.of(KvKey.of("users").raw()))));
  private MemoryEngine engine;
  private KvServer server;

  @BeforeEach
  void start() {
    engine = MemoryEngine.open();
    server = KvServer.builder(engine).accessTokens(tokens::get).port(0).start();
    try (Kv admin = client(ADMIN)) {
      admin.set(KvKey.of("users", "alice"), "alice");
      admin.set(KvKey.of("config", "mode"), "strict");
      admin.set(KvKey.of("n"), KvU64.of(1));
    }
  }

  @AfterEach
  void stop() {
    server.close();
    engine.close();
  }

  private Kv client(String token) {
    return Kv.open(server.url(), KvOptions.defaults().with("accessToken", token)
        .with("remote.maxRetries", "0"));
  }

  /** Every kind of write, each on {@code key}. */
  private static List<Consumer<Kv>> writes(KvKey key) {
    List<Consumer<Kv>> out = new ArrayList<>();
    out.add(kv -> kv.set(key, "x"));
    out.add(kv -> kv.delete(key));
    out.add(kv -> kv.atomic().sum(key, KvU64.of(1)).commit());
    out.add(kv -> kv.atomic().min(key, KvU64.of(0)).commit());
    out.add(kv -> kv.atomic().max(key, KvU64.of(9)).commit());
    out.add(kv -> kv.atomic().setVersionstamped(key, "x").commit());
    out.add(kv -> kv.atomic().check(key, null).set(KvKey.of("users", "ok"), 1).commit());
    out.add(kv -> kv.enqueue("job"));
    return out;
  }

  private void assertUnchanged() {
    try (Kv admin = client(ADMIN)) {
      List<KvKey> keys = new ArrayList<>();
      admin.list(ListSelector.prefix(KvKey.of())).forEach(e -> keys.add(e.key()));
      assertThat(keys).containsExactly(KvKey.of("config", "mode"), KvKey.of("n"),
          KvKey.of("users", "alice"));
      assertThat(admin.get(KvKey.of("n")).value()).isEqualTo(KvU64.of(1));
    }
  }

  @Test
  void readOnlyToken_readsEverything_andEveryWriteIs403() {
    try (Kv reader = client(READER)) {
      assertThat(reader.get(KvKey.of("config", "mode")).value()).isEqualTo("strict");
      for (Consumer<Kv> write : writes(KvKey.of("users", "bob"))) {
        assertThatThrownBy(() -> write.accept(reader)).isInstanceOf(RemoteException.class)
            .hasMessageContaining("status=403").hasMessageContaining("may not write");
      }
    }
    assertUnchanged();
  }

  @Test
  void prefixToken_worksUnderItsPrefix_andIs403Elsewhere() {
    try (Kv users = client(USERS)) {
      assertThat(users.get(KvKey.of("users", "alice")).value()).isEqualTo("alice");
      assertThatThrownBy(() -> users.get(KvKey.of("config", "mode")))
          .isInstanceOf(RemoteException.class).hasMessageContaining("status=403");
      assertThatThrownBy(() -> users.list(ListSelector.prefix(KvKey.of())).hasNext())
          .isInstanceOf(RemoteException.class).hasMessageContaining("status=403");
      assertThatThrownBy(() -> users.watch(List.of(KvKey.of("n"))).next())
          .isInstanceOf(RemoteException.class).hasMessageContaining("status=403");
      for (Consumer<Kv> write : writes(KvKey.of("config", "other"))) {
        assertThatThrownBy(() -> write.accept(users)).isInstanceOf(RemoteException.class)
            .hasMessageContaining("status=403");
      }
      assertUnchanged();
      users.set(KvKey.of("users", "bob"), "bob"); // under its prefix: allowed
      assertThat(users.get(KvKey.of("users", "bob")).value()).isEqualTo("bob");
    }
  }

  @Test
  void neitherToken_mayTakeQueueMessages_whichStayForAFullToken() throws Exception {
    try (Kv admin = client(ADMIN)) {
      admin.enqueue("job");
      for (String limited : List.of(READER, USERS)) {
        try (Kv kv = client(limited); QueueListener listener = kv.listenQueue(m -> {
          throw new AssertionError("a limited token got " + m);
        })) {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
          while (listener.isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(20);
          }
          assertThat(listener.isRunning()).as("refused with 403, the listener stops").isFalse();
        }
      }
      BlockingQueue<Object> got = new LinkedBlockingQueue<>();
      try (QueueListener listener = admin.listenQueue(got::add)) {
        assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("job");
      }
    }
  }

  @Test
  void aReadOnlyServer_refusesEveryWriteOfAFullToken_sayingThatItIsTheServer() {
    // It said "This access token may not write.", and its user went to check the token.
    try (KvServer replica = KvServer.builder(engine).accessTokens(tokens::get).readOnly(true)
        .port(0).start();
        Kv admin = Kv.open(replica.url(), KvOptions.defaults().with("accessToken", ADMIN)
            .with("remote.maxRetries", "0"))) {
      assertThat(admin.get(KvKey.of("config", "mode")).value()).isEqualTo("strict");
      for (Consumer<Kv> write : writes(KvKey.of("users", "bob"))) {
        assertThatThrownBy(() -> write.accept(admin)).isInstanceOf(RemoteException.class)
            .hasMessageContaining("status=403")
            .hasMessageContaining("This server serves reads only: it may not write for any"
                + " token.")
            .extracting(e -> ((RemoteException) e).status()).isEqualTo(403);
      }
    }
    assertUnchanged();
  }

  @Test
  void tokens_rotateWithoutARestart() {
    try (Kv admin = client(ADMIN)) {
      admin.get(KvKey.of("n"));
    }
    String next = "next-admin-token-0123456789";
    tokens.set(List.of(AccessToken.full(next)));
    assertThatThrownBy(() -> client(ADMIN)).isInstanceOf(RemoteException.class)
        .hasMessageContaining("status=401"); // its metadata exchange is refused
    try (Kv rotated = client(next)) {
      assertThat(rotated.get(KvKey.of("n")).value()).isEqualTo(KvU64.of(1));
    }
  }
}
