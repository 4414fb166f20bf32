package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.QueueListener;
import dev.kvasir.base.KvException;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.QueueDepth;
import dev.kvasir.value.JsValues;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Queues: delivery, delay, redelivery with backoff, keysIfUndelivered (reference §5). */
public abstract class QueueContract extends ContractBase {
  private static final long WAIT_SECONDS = 10;

  private void requireQueues() {
    assumeTrue(supportsQueues(), "this engine has no queue; see enqueue_unsupported");
  }

  @Test
  void enqueue_unsupported_failsClearly() {
    assumeTrue(!supportsQueues(), "this engine has queues, which the other tests here cover");
    assertThatThrownBy(() -> kv.enqueue("x")).isInstanceOf(KvException.class)
        .hasMessageContaining("not supported");
  }

  /** What kvasir info shows, read at once: due, due later, being delivered (operations.md §5). */
  @Test
  void queueDepth_countsMessagesByState_andHowLongTheOldestDueOneWaited() throws Exception {
    requireQueues();
    var local = kv.engine().queueDepth();
    assumeTrue(local.isPresent(), "the engine cannot tell its queue's size (a remote one)");
    assertThat(local.get()).isEqualTo(new QueueDepth(0, 0, 0, Duration.ZERO));
    kv.enqueue("first");
    kv.enqueue("second");
    kv.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
    Thread.sleep(20);
    DequeuedMessage taken = kv.engine().dequeueNext(Duration.ofSeconds(WAIT_SECONDS));
    assertThat(taken).isNotNull();
    QueueDepth depth = kv.engine().queueDepth().orElseThrow();
    assertThat(List.of(depth.ready(), depth.delayed(), depth.running()))
        .containsExactly(1L, 1L, 1L);
    assertThat(depth.oldestReadyWait()).isPositive();
    taken.finish(true);
    assertThat(kv.engine().queueDepth().orElseThrow().running()).isZero();
  }

  @Test
  void enqueue_thenListen_deliversAnEqualValue() throws Exception {
    requireQueues();
    BlockingQueue<Object> got = new LinkedBlockingQueue<>();
    Map<String, Object> message = Map.of("to", "alice", "n", List.of(1.0, 2.0));
    assertThat(kv.enqueue(message).ok()).isTrue();
    try (QueueListener l = kv.listenQueue(got::add)) {
      Object received = got.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(JsValues.deepEquals(received, message)).as("%s", received).isTrue();
    }
  }

  @Test
  void enqueue_inAnAtomicOperation_isDeliveredOnlyIfItCommits() throws Exception {
    requireQueues();
    kv.set(key("gate"), 1);
    var stale = kv.get(key("gate"));
    kv.set(key("gate"), 2);
    assertThat(kv.atomic().check(stale).enqueue("never").commit().ok()).isFalse();
    assertThat(kv.atomic().enqueue("yes").set(key("x"), 1).commit().ok()).isTrue();
    BlockingQueue<Object> got = new LinkedBlockingQueue<>();
    try (QueueListener l = kv.listenQueue(got::add)) {
      assertThat(got.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("yes");
      assertThat(got.poll(300, TimeUnit.MILLISECONDS)).isNull();
    }
  }

  @Test
  void enqueue_withDelay_isNotDeliveredBeforeItIsDue() throws Exception {
    requireQueues();
    BlockingQueue<Long> deliveredAt = new LinkedBlockingQueue<>();
    try (QueueListener l = kv.listenQueue(m -> deliveredAt.add(System.currentTimeMillis()))) {
      long enqueuedAt = System.currentTimeMillis();
      kv.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofMillis(400)));
      Long at = deliveredAt.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(at).isNotNull();
      assertThat(at - enqueuedAt).isGreaterThanOrEqualTo(395);
    }
  }

  @Test
  void enqueue_severalMessages_deliveredInDueOrder() throws Exception {
    requireQueues();
    kv.enqueue(3, EnqueueOptions.defaults().delay(Duration.ofMillis(300)));
    kv.enqueue(1);
    kv.enqueue(2, EnqueueOptions.defaults().delay(Duration.ofMillis(150)));
    BlockingQueue<Object> got = new LinkedBlockingQueue<>();
    try (QueueListener l = kv.listenQueue(got::add)) {
      for (double expected : new double[] {1, 2, 3}) {
        assertThat(got.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(expected);
      }
    }
  }

  @Test
  void handlerFailure_redeliversByBackoff_untilSuccess() throws Exception {
    requireQueues();
    AtomicInteger attempts = new AtomicInteger();
    BlockingQueue<Integer> succeeded = new LinkedBlockingQueue<>();
    kv.enqueue("flaky", EnqueueOptions.defaults().backoffSchedule(List.of(50, 50, 50))
        .keysIfUndelivered(List.of(key("dlq", "flaky"))));
    try (QueueListener l = kv.listenQueue(m -> {
      if (attempts.incrementAndGet() < 3) {
        throw new IllegalStateException("attempt " + attempts.get() + " fails (expected)");
      }
      succeeded.add(attempts.get());
    })) {
      assertThat(succeeded.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(3);
    }
    assertThat(kv.get(key("dlq", "flaky")).exists()).isFalse();
  }

  @Test
  void handlerFailure_afterLastAttempt_writesKeysIfUndelivered() throws Exception {
    requireQueues();
    AtomicInteger attempts = new AtomicInteger();
    kv.enqueue(Map.of("job", 7), EnqueueOptions.defaults().backoffSchedule(List.of(20, 20))
        .keysIfUndelivered(List.of(key("dlq", "a"), key("dlq", 2))));
    try (QueueListener l = kv.listenQueue(m -> {
      attempts.incrementAndGet();
      throw new IllegalStateException("always fails (expected)");
    })) {
      long deadline = System.currentTimeMillis() + WAIT_SECONDS * 1000;
      while (!kv.get(key("dlq", 2)).exists() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
    }
    assertThat(attempts.get()).isEqualTo(3);
    var a = kv.get(key("dlq", "a"));
    var b = kv.get(key("dlq", 2));
    assertThat(a.value()).isEqualTo(Map.of("job", 7.0));
    assertThat(b.value()).isEqualTo(Map.of("job", 7.0));
    assertThat(a.versionstamp()).isEqualTo(b.versionstamp());
  }

  @Test
  void handlerFailure_withEmptyBackoff_deadLettersAfterOneAttempt() throws Exception {
    requireQueues();
    AtomicInteger attempts = new AtomicInteger();
    kv.enqueue("once", EnqueueOptions.defaults().backoffSchedule(List.of())
        .keysIfUndelivered(List.of(key("dlq"))));
    try (QueueListener l = kv.listenQueue(m -> {
      attempts.incrementAndGet();
      throw new IllegalStateException("fails (expected)");
    })) {
      long deadline = System.currentTimeMillis() + WAIT_SECONDS * 1000;
      while (!kv.get(key("dlq")).exists() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
    }
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(kv.get(key("dlq")).value()).isEqualTo("once");
  }

  @Test
  void aReleasedDelivery_isDueAgainAtOnce_withItsRetriesAsTheyWere() throws Exception {
    requireQueues();
    kv.enqueue("given back", EnqueueOptions.defaults().backoffSchedule(List.of(60_000))
        .keysIfUndelivered(List.of(key("dlq"))));
    DequeuedMessage first = engine.dequeueNext(Duration.ofSeconds(WAIT_SECONDS));
    assertThat(first.payload().decode()).isEqualTo("given back");
    first.release();
    DequeuedMessage second = engine.dequeueNext(Duration.ofSeconds(3));
    assertThat(second).as("due at once, not after its minute of backoff").isNotNull();
    assertThat(second.payload().decode()).isEqualTo("given back");
    second.finish(false); // its one retry is left: it waits a minute
    assertThat(engine.dequeueNext(Duration.ofMillis(300))).isNull();
    assertThat(kv.get(key("dlq")).exists()).isFalse();
  }

  @Test
  void aReleasedDelivery_withoutRetries_isNotDeadLettered() throws Exception {
    requireQueues();
    kv.enqueue("once", EnqueueOptions.defaults().backoffSchedule(List.of())
        .keysIfUndelivered(List.of(key("dlq"))));
    engine.dequeueNext(Duration.ofSeconds(WAIT_SECONDS)).release();
    assertThat(kv.get(key("dlq")).exists()).as("no attempt failed").isFalse();
    DequeuedMessage again = engine.dequeueNext(Duration.ofSeconds(3));
    assertThat(again.payload().decode()).isEqualTo("once");
    again.finish(true);
    assertThat(engine.dequeueNext(Duration.ofMillis(300))).isNull();
  }

  @Test
  void listeners_shareMessages_eachHandledOnce() throws Exception {
    requireQueues();
    BlockingQueue<Object> got = new LinkedBlockingQueue<>();
    for (int i = 0; i < 20; i++) {
      kv.enqueue(i);
    }
    try (QueueListener a = kv.listenQueue(got::add); QueueListener b = kv.listenQueue(got::add)) {
      java.util.Set<Object> seen = new java.util.HashSet<>();
      for (int i = 0; i < 20; i++) {
        seen.add(got.poll(WAIT_SECONDS, TimeUnit.SECONDS));
      }
      assertThat(seen).hasSize(20);
      assertThat(got.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }
  }

  @Test
  void listenQueue_awaitTermination_waitsUntilTheDatabaseCloses() throws Exception {
    requireQueues();
    QueueListener l = kv.listenQueue(m -> { });
    assertThat(l.awaitTermination(Duration.ofMillis(100))).as("running").isFalse();
    Thread closer = new Thread(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
      kv.close();
    });
    closer.start();
    assertThat(l.awaitTermination(Duration.ofSeconds(WAIT_SECONDS))).isTrue();
    assertThat(l.isRunning()).isFalse();
    closer.join();
  }

  @Test
  void listenQueue_closeStopsTheListener() throws Exception {
    requireQueues();
    QueueListener l = kv.listenQueue(m -> { });
    assertThat(l.isRunning()).isTrue();
    l.close();
    assertThat(l.isRunning()).isFalse();
    BlockingQueue<Object> got = new LinkedBlockingQueue<>();
    kv.enqueue("for the next listener");
    try (QueueListener next = kv.listenQueue(got::add)) {
      assertThat(got.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("for the next listener");
    }
  }
}
