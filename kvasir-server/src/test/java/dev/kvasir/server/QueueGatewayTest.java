package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.ForwardingEngine;
import dev.kvasir.testkit.ForwardingMessage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the server's queue gateway waits for messages for its remote listeners (QueueGateway,
 * docs/kv-connect.md §10): in the engine, for as long as its polls wait, so that the engine's
 * queue poll is what bounds an idle server's looks at its storage; and how a poll that ends
 * early is answered at once. The engine's poll is an hour here, so a message reaches a poll
 * within a test's seconds only through the engine's wake-ups.
 */
class QueueGatewayTest {
  private static final Duration POLL_WAIT = Duration.ofSeconds(20);
  private static final long SECONDS = 10;

  private MemoryEngine memory;
  private CountedTakes engine;
  private Kv kv;
  private QueueGateway gateway;

  @BeforeEach
  void open() {
    memory = MemoryEngine.open(Duration.ofHours(1));
    engine = new CountedTakes(memory);
    kv = Kv.of(memory);
    gateway = new QueueGateway(engine, Duration.ofSeconds(30), 1);
  }

  @AfterEach
  void close() {
    gateway.close();
    kv.close();
  }

  @Test
  void aWaitingPoll_getsAMessageEnqueuedWhileItWaits() throws Exception {
    QueueGateway.Lease lease = pollThenEnqueue("a", "hello");
    assertThat(lease.message().payload().decode()).isEqualTo("hello");
    assertThat(gateway.finish(lease.id(), true, false)).isTrue();
  }

  @Test
  void aPollOfNoTime_takesAMessageThatIsDue() throws Exception {
    kv.enqueue("due");
    QueueGateway.Lease lease = gateway.next(Duration.ZERO, "a").get(SECONDS, TimeUnit.SECONDS);
    assertThat(lease).as("taken, not answered empty").isNotNull();
    assertThat(lease.message().payload().decode()).isEqualTo("due");
  }

  /**
   * Before, the gateway asked the engine again every second, whatever the engine's poll: three
   * times here. Once is the rule; a second time only if the engine's clock (wall time) and the
   * gateway's (monotonic) disagree at the end.
   */
  @Test
  void anIdlePoll_asksTheEngineOnce_forItsWholeWait() throws Exception {
    CompletableFuture<QueueGateway.Lease> answer = gateway.next(Duration.ofMillis(2_500), "a");
    assertThat(answer.get(SECONDS, TimeUnit.SECONDS)).as("nothing came").isNull();
    assertThat(engine.takes.get()).isBetween(1, 2);
  }

  /** Before, the poll's thread went on waiting for up to a second, and held its place. */
  @Test
  void aCancelledPoll_isAnsweredAtOnce_andFreesItsPlace() throws Exception {
    CompletableFuture<QueueGateway.Lease> first = gateway.next(POLL_WAIT, "a");
    awaitTakerWaiting();
    gateway.cancel("a");
    assertThat(first).isCompletedWithValue(null);
    CompletableFuture<QueueGateway.Lease> second = gateway.next(POLL_WAIT, "b");
    assertThat(second).as("not refused as over the limit of one poll").isNotNull();
    kv.enqueue("for the second");
    assertThat(second.get(SECONDS, TimeUnit.SECONDS).message().payload().decode())
        .isEqualTo("for the second");
  }

  @Test
  void aCancellationBeforeItsPoll_endsThePollAtOnce() {
    gateway.cancel("a");
    assertThat(gateway.next(POLL_WAIT, "a")).isCompletedWithValue(null);
  }

  /**
   * A cancelled poll's taker still waits in the engine; what it takes when no poll waits goes
   * back at once rather than waiting a lease for a poll.
   */
  @Test
  void aMessageTakenWhenNoPollWaits_isDueAgainAtOnce() throws Exception {
    gateway.next(POLL_WAIT, "a");
    awaitTakerWaiting();
    gateway.cancel("a");
    kv.enqueue("nobody polls");
    DequeuedMessage m = memory.dequeueNext(Duration.ofSeconds(SECONDS));
    assertThat(m).as("taken here, or by the taker and given back").isNotNull();
    assertThat(m.payload().decode()).isEqualTo("nobody polls");
    m.finish(true);
  }

  /** Before, a waiting poll looked for unclaimed messages only between its one-second waits. */
  @Test
  void aMessageWhoseAnswerWasNotSent_goesToTheWaitingPollAtOnce() throws Exception {
    QueueGateway.Lease lent = pollThenEnqueue("a", "again");
    CompletableFuture<QueueGateway.Lease> second = gateway.next(POLL_WAIT, "b");
    awaitTakerWaiting();
    gateway.unclaimed(lent);
    assertThat(second).isCompleted();
    QueueGateway.Lease relent = second.join();
    assertThat(relent.message().payload().decode()).isEqualTo("again");
    assertThat(gateway.finish(lent.id(), true, false)).as("the first lease ended").isFalse();
    assertThat(gateway.finish(relent.id(), true, false)).isTrue();
  }

  /**
   * Before, a taker that gave a message back because no poll waited then stopped, and was still
   * counted as running while it gave it back: a poll that came in that moment started no taker
   * of its own and waited out its time, the message due in the engine (a contract test of the
   * remote engine failed so, once: a listener closed, a message enqueued, the next listener
   * opened).
   */
  @Test
  void aPollThatComesWhileATakerGivesAMessageBack_getsIt() throws Exception {
    CountDownLatch givingBack = new CountDownLatch(1);
    CountDownLatch pollCame = new CountDownLatch(1);
    engine.beforeRelease = () -> {
      givingBack.countDown();
      try {
        pollCame.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    gateway.next(POLL_WAIT, "a");
    awaitTakerWaiting();
    gateway.cancel("a");
    kv.enqueue("for the next poll");
    assertThat(givingBack.await(SECONDS, TimeUnit.SECONDS)).as("taken, no poll waiting").isTrue();
    CompletableFuture<QueueGateway.Lease> next = gateway.next(POLL_WAIT, "b");
    pollCame.countDown();
    assertThat(next.get(SECONDS, TimeUnit.SECONDS).message().payload().decode())
        .isEqualTo("for the next poll");
  }

  /** The waiting polls fail as the engine does, which a server answers with 503. */
  @Test
  void aClosedEngine_failsTheWaitingPolls() {
    kv.close();
    assertThat(gateway.next(POLL_WAIT, "a")).failsWithin(SECONDS, TimeUnit.SECONDS)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(KvClosedException.class);
  }

  /** Before, a waiting poll ended within a second of the stop. */
  @Test
  void stopping_answersTheWaitingPollsAtOnce_andTakesNoMore() {
    CompletableFuture<QueueGateway.Lease> waiting = gateway.next(POLL_WAIT, "a");
    gateway.stopTaking();
    assertThat(waiting).isCompletedWithValue(null);
    assertThat(gateway.next(POLL_WAIT, "b")).isCompletedWithValue(null);
  }

  /** The lease poll {@code pollId} gets for {@code message}, enqueued while the poll waits. */
  private QueueGateway.Lease pollThenEnqueue(String pollId, String message) throws Exception {
    CompletableFuture<QueueGateway.Lease> answer = gateway.next(POLL_WAIT, pollId);
    awaitTakerWaiting();
    kv.enqueue(message);
    return answer.get(SECONDS, TimeUnit.SECONDS);
  }

  /** Waits until a taker waits in the engine, so that what follows finds it waiting. */
  private void awaitTakerWaiting() throws InterruptedException {
    for (int i = 0; i < 1_000 && engine.waitingNow.get() == 0; i++) {
      Thread.sleep(5);
    }
    assertThat(engine.waitingNow.get()).as("a taker waits in the engine").isPositive();
    Thread.sleep(100); // from the call to the engine's own wait
  }

  /**
   * The memory engine, counting the gateway's calls to take a message, and running {@code
   * beforeRelease} before a message taken is given back.
   */
  private static final class CountedTakes extends ForwardingEngine {
    final AtomicInteger takes = new AtomicInteger();
    final AtomicInteger waitingNow = new AtomicInteger();
    volatile Runnable beforeRelease = () -> { };

    CountedTakes(KvEngine engine) {
      super(engine);
    }

    @Override
    public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
      takes.incrementAndGet();
      waitingNow.incrementAndGet();
      DequeuedMessage m;
      try {
        m = super.dequeueNext(timeout);
      } finally {
        waitingNow.decrementAndGet();
      }
      return m == null ? null : new ForwardingMessage(m) {
        @Override
        public void release() {
          beforeRelease.run();
          super.release();
        }
      };
    }
  }
}
