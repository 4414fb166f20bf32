package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.testkit.ForwardingEngine;
import dev.kvasir.value.KvU64;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write Kvasir's client gives up on tells whether it may have been applied: a caller who sends
 * it again without reading first could count a sum twice.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
class WriteOutcomeTest {
  private static KvOptions client(String deadlineMs) {
    return KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.deadlineMs", deadlineMs).with("remote.retryDelayMs", "10");
  }

  @Test
  void aWriteToAServerThatIsGone_wasNotApplied_andSaysSo() {
    KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(Served.TOKEN).port(0)
        .start();
    try (Kv kv = Kv.open(server.url(), client("2000"))) {
      kv.get(KvKey.of("warm")); // the metadata is in: the write itself is refused
      server.close();
      KvUnavailableException e = catchThrowableOfType(
          KvUnavailableException.class, () -> kv.sum(KvKey.of("n"), 1));
      assertThat(e.maybeApplied()).isFalse();
      assertThat(e).hasMessageContaining("the write was not applied");
    }
  }

  @Test
  void aWriteWhoseAnswerNeverCame_mayHaveBeenApplied_andSaysSo() throws Exception {
    try (HeldWrites engine = new HeldWrites();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0).start();
        Kv kv = Kv.open(server.url(), client("500"))) {
      KvUnavailableException e = catchThrowableOfType(
          KvUnavailableException.class, () -> kv.sum(KvKey.of("n"), 1));
      assertThat(e.maybeApplied()).isTrue();
      assertThat(e).hasMessageContaining("(remote.deadlineMs reached)")
          .hasMessageContaining("the write may have been applied: read the keys it writes");
      engine.release();
      assertThat(engine.applied.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(kv.get(KvKey.of("n")).value()).as("what the message warned of")
          .isNotNull();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"blocking", "async"})
  void aWriteAProxyRefusedWith408_isSentAgain_andAppliedOnce(String api) throws Exception {
    try (KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(Served.TOKEN)
            .port(0).start();
        RefusingFront front = new RefusingFront(server.url());
        Kv kv = Kv.open(front.url(), client("10000"))) {
      kv.get(KvKey.of("warm")); // the metadata is in: what follows is the write alone
      front.refuseNext(1, 408);
      sum(kv, api);
      assertThat(front.refused()).as("the refused attempt").isEqualTo(1);
      assertThat(kv.get(KvKey.of("n")).value()).as("applied once").isEqualTo(KvU64.of(1));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"blocking", "async"})
  void aWriteRefusedWith408UntilTheClientGivesUp_wasNotApplied_andSaysSo(String api)
      throws Exception {
    try (KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(Served.TOKEN)
            .port(0).start();
        RefusingFront front = new RefusingFront(server.url());
        Kv kv = Kv.open(front.url(), client("10000").with("remote.maxRetries", "2"))) {
      kv.get(KvKey.of("warm"));
      int passedBefore = front.passed();
      front.refuseNext(Integer.MAX_VALUE, 408);
      KvUnavailableException e = catchThrowableOfType(
          KvUnavailableException.class, () -> sum(kv, api));
      assertThat(e.maybeApplied()).isFalse();
      assertThat(e).hasMessageContaining("after 3 attempts")
          .hasMessageContaining("status 408").hasMessageContaining("the write was not applied");
      assertThat(front.passed()).as("attempts that reached the server").isEqualTo(passedBefore);
      front.refuseNext(0, 408);
      assertThat(kv.get(KvKey.of("n")).value()).isNull();
    }
  }

  @Test
  void aWriteRefusedWith503UntilTheClientGivesUp_mayHaveBeenApplied() throws Exception {
    // A 503 may come after the work (a server whose sync failed answers so), and the client
    // cannot tell a proxy's from a server's.
    try (KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(Served.TOKEN)
            .port(0).start();
        RefusingFront front = new RefusingFront(server.url());
        Kv kv = Kv.open(front.url(), client("10000").with("remote.maxRetries", "1"))) {
      kv.get(KvKey.of("warm"));
      front.refuseNext(Integer.MAX_VALUE, 503);
      KvUnavailableException e = catchThrowableOfType(
          KvUnavailableException.class, () -> kv.sum(KvKey.of("n"), 1));
      assertThat(e.maybeApplied()).isTrue();
      assertThat(e).hasMessageContaining("status 503")
          .hasMessageContaining("the write may have been applied");
    }
  }

  /** A sum of 1 to ["n"] through the blocking or the asynchronous API; its failure unwrapped. */
  private static void sum(Kv kv, String api) {
    if (api.equals("blocking")) {
      kv.sum(KvKey.of("n"), 1);
      return;
    }
    try {
      kv.async().sum(KvKey.of("n"), 1).join();
    } catch (CompletionException e) {
      throw (RuntimeException) e.getCause();
    }
  }

  /** A memory engine whose commits wait until {@link #release()}, then are applied. */
  private static final class HeldWrites extends ForwardingEngine {
    private final CountDownLatch released = new CountDownLatch(1);
    final CountDownLatch applied = new CountDownLatch(1);

    HeldWrites() {
      super(MemoryEngine.open());
    }

    void release() {
      released.countDown();
    }

    @Override
    public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
      try {
        released.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Optional<Versionstamp> committed = super.atomicWrite(write);
      applied.countDown();
      return committed;
    }

    @Override
    public void close() {
      release();
      super.close();
    }
  }
}
