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
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
