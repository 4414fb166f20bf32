package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.Blocking;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests that may wait on the engine run on the server's pool, not on the thread that
 * received them (docs/kv-connect.md §13): while one waits, the next request on the same
 * connection is answered.
 */
class WaitingEngineTest {
  private final CountDownLatch waiting = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicBoolean heldOnce = new AtomicBoolean();
  private Kv kv;

  @AfterEach
  void close() {
    release.countDown();
    if (kv != null) {
      kv.close();
    }
  }

  /**
   * A memory engine that says its reads and commits may wait, and whose first call of {@code
   * held} waits until {@link #release}.
   */
  private KvEngine holding(String held) {
    KvEngine inner = MemoryEngine.open();
    InvocationHandler handler = (proxy, method, args) -> {
      switch (method.getName()) {
        case "readsWithoutWaiting", "writesWithoutWaiting" -> {
          return false;
        }
        default -> { }
      }
      if (method.getName().equals(held) && heldOnce.compareAndSet(false, true)) {
        waiting.countDown();
        release.await();
      }
      try {
        return method.invoke(inner, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return (KvEngine) Proxy.newProxyInstance(KvEngine.class.getClassLoader(),
        new Class<?>[] {KvEngine.class}, handler);
  }

  @Test
  void aCommitThatWaits_holdsUpNoOtherRequest() throws Exception {
    kv = Kv.of(new Served(holding("atomicWrite")));
    CompletableFuture<CommitResult> commit =
        Blocking.call(() -> kv.set(KvKey.of("a"), 1));
    assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();

    KvEntry other = Blocking.call(() -> kv.get(KvKey.of("b")))
        .get(30, TimeUnit.SECONDS);
    assertThat(other.exists()).isFalse();
    assertThat(commit).isNotDone();

    release.countDown();
    assertThat(commit.get(30, TimeUnit.SECONDS).ok()).isTrue();
    assertThat(kv.get(KvKey.of("a")).value()).isEqualTo(1.0);
  }

  @Test
  void aReadThatWaits_holdsUpNoOtherRequest() throws Exception {
    kv = Kv.of(new Served(holding("snapshotRead")));
    CompletableFuture<KvEntry> read =
        Blocking.call(() -> kv.get(KvKey.of("a")));
    assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();

    CommitResult other = Blocking.call(() -> kv.set(KvKey.of("b"), 2))
        .get(30, TimeUnit.SECONDS);
    assertThat(other.ok()).isTrue();
    assertThat(read).isNotDone();

    release.countDown();
    assertThat(read.get(30, TimeUnit.SECONDS).exists()).isFalse();
  }
}
