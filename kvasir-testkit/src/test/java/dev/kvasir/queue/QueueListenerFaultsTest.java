package dev.kvasir.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.QueueListener;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.testkit.ForwardingEngine;
import dev.kvasir.testkit.ForwardingMessage;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A queue listener keeps delivering through failures its engine did not foresee: an exception
 * of a library's from taking a message (Jetty's "session closed" as a server stopped), and a
 * delivery whose outcome cannot be reported (the server out of reach for longer than the
 * client's retries). Its thread ended on either, and the listener delivered nothing more.
 */
class QueueListenerFaultsTest {
  /** Fails the first take with {@code takeFailure} and the first report of an outcome. */
  private static final class FaultyEngine extends ForwardingEngine {
    private final AtomicInteger takes = new AtomicInteger();
    private final AtomicInteger reports = new AtomicInteger();
    private final RuntimeException takeFailure;

    FaultyEngine(RuntimeException takeFailure) {
      super(MemoryEngine.open());
      this.takeFailure = takeFailure;
    }

    @Override
    public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
      if (takes.getAndIncrement() == 0) {
        throw takeFailure;
      }
      DequeuedMessage m = super.dequeueNext(timeout);
      return m == null ? null : new ForwardingMessage(m) {
        @Override
        public void finish(boolean success) {
          if (reports.getAndIncrement() == 0) {
            throw new KvUnavailableException("the server is out of reach (a test)", false, null);
          }
          super.finish(success);
        }
      };
    }
  }

  private static void deliversThrough(RuntimeException takeFailure) throws Exception {
    FaultyEngine engine = new FaultyEngine(takeFailure);
    try (Kv kv = Kv.of(engine)) {
      kv.enqueue("first");
      kv.enqueue("second");
      BlockingQueue<Object> got = new LinkedBlockingQueue<>();
      try (QueueListener listener = kv.listenQueue(got::add)) {
        assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(got.poll(10, TimeUnit.SECONDS)).as("after an outcome that was not reported")
            .isEqualTo("second");
        assertThat(listener.isRunning()).isTrue();
      }
      assertThat(engine.reports.get()).isEqualTo(2);
    }
  }

  @Test
  void anUnexpectedExceptionFromTakingAMessage_isLogged_andTheListenerGoesOn() throws Exception {
    deliversThrough(new IllegalStateException("session closed (a test)"));
  }

  @Test
  void aRetryableFailureFromTakingAMessage_isRetried() throws Exception {
    deliversThrough(new KvUnavailableException("the server is restarting (a test)", false, null));
  }
}
