package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every event that makes a queue message available wakes a listener waiting for one
 * (docs/queues.md §3). The listeners here wait on an engine whose poll is an hour away, and
 * are willing to wait as long, so only a wake-up can hand them the message within the test's
 * {@link #WAIT}. Each listener waits on a thread of its own, as a {@code QueueListener}'s does;
 * closing the engine ends the wait of one that was not woken.
 */
public abstract class QueueWakeUpContract extends ContractBase {
  private static final Duration POLL = Duration.ofHours(1);
  /** How long the test waits for a woken listener to take its message: far more than needed. */
  private static final Duration WAIT = Duration.ofSeconds(10);
  /**
   * Time for a listener's thread to start waiting. A message that comes sooner is found by its
   * first look: the test then shows nothing, but cannot fail.
   */
  private static final long SETTLE_MS = 300;

  /** The database under test, opened with a poll of an hour. */
  private Kv slow;

  @BeforeEach
  void openWithAnHourlyPoll() throws Exception {
    assumeTrue(supportsQueues(), "this engine has no queue");
    Path dir = tempDir.resolve("hourly-poll");
    Files.createDirectories(dir);
    slow = Kv.of(subject().openEngine(dir, POLL));
  }

  @AfterEach
  void closeIt() {
    if (slow != null) {
      slow.close();
    }
  }

  /** The listener waits for a message due in an hour; one due now must not wait that long. */
  @Test
  void anEnqueue_wakesAWaitingListener() throws Exception {
    slow.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
    CompletableFuture<DequeuedMessage> taken = waitingListener();
    slow.enqueue("now");
    assertThat(payloadOf(taken)).isEqualTo("now");
  }

  /** Woken by the enqueue, the listener waits for the new message's due time, not the poll. */
  @Test
  void aDelayedEnqueue_wakesAWaitingListener_whichTakesTheMessageWhenItIsDue() throws Exception {
    CompletableFuture<DequeuedMessage> taken = waitingListener();
    slow.enqueue("soon", EnqueueOptions.defaults().delay(Duration.ofMillis(200)));
    assertThat(payloadOf(taken)).isEqualTo("soon");
  }

  @Test
  void anEnqueueInAnAtomicCommit_wakesAWaitingListener() throws Exception {
    CompletableFuture<DequeuedMessage> taken = waitingListener();
    assertThat(slow.atomic().set(key("job"), 1).enqueue("with a write").commit().ok()).isTrue();
    assertThat(payloadOf(taken)).isEqualTo("with a write");
  }

  /** A failed attempt with a retry left is due again after its backoff: the retry wakes. */
  @Test
  void aFailedDelivery_withARetryLeft_wakesAWaitingListener() throws Exception {
    slow.enqueue("again", EnqueueOptions.defaults().backoffSchedule(List.of(1)));
    DequeuedMessage first = slow.engine().dequeueNext(WAIT); // due already
    assertThat(first).isNotNull();
    CompletableFuture<DequeuedMessage> taken = waitingListener();
    first.finish(false);
    assertThat(payloadOf(taken)).isEqualTo("again");
  }

  @Test
  void aReleasedDelivery_wakesAWaitingListener() throws Exception {
    slow.enqueue("given back");
    DequeuedMessage first = slow.engine().dequeueNext(WAIT); // due already
    assertThat(first).isNotNull();
    CompletableFuture<DequeuedMessage> taken = waitingListener();
    first.release();
    assertThat(payloadOf(taken)).isEqualTo("given back");
  }

  /** A thread waiting up to {@link #POLL} for the next message of {@link #slow}. */
  private CompletableFuture<DequeuedMessage> waitingListener() throws InterruptedException {
    KvEngine engine = slow.engine();
    CompletableFuture<DequeuedMessage> taken = new CompletableFuture<>();
    Thread listener = new Thread(() -> {
      try {
        taken.complete(engine.dequeueNext(POLL));
      } catch (Throwable e) {
        taken.completeExceptionally(e);
      }
    }, "waiting queue listener");
    listener.setDaemon(true);
    listener.start();
    Thread.sleep(SETTLE_MS);
    assertThat(taken).as("the listener waits: nothing is due yet").isNotDone();
    return taken;
  }

  /** The payload the listener took, after failing if it was not woken within {@link #WAIT}. */
  private static Object payloadOf(CompletableFuture<DequeuedMessage> taken) throws Exception {
    DequeuedMessage message;
    try {
      message = taken.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the listener, its poll an hour away, was not woken: it took"
          + " no message within " + WAIT, e);
    }
    assertThat(message).isNotNull();
    Object payload = message.payload().decode();
    message.finish(true);
    return payload;
  }
}
