package dev.kvasir.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.base.KvException;
import dev.kvasir.base.MeterSink;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

class EngineTimerTest {
  /**
   * Closing an engine interrupts a sweep in progress, whose commit then fails as interrupted. An
   * application that opened and closed a database logged "the expiry sweep failed" as a warning
   * about one close in a hundred.
   */
  @Test
  void aSweepTheCloseInterrupts_isNoFailure() throws Exception {
    CountDownLatch sweeping = new CountDownLatch(1);
    EngineTimer[] timer = new EngineTimer[1];
    timer[0] = new EngineTimer("test-timer", () -> {
      timer[0].sweepStarted();
      sweeping.countDown();
      try {
        new CountDownLatch(1).await(); // a commit waiting for the writer
      } catch (InterruptedException e) {
        timer[0].sweepFailed(new KvException("interrupted while waiting for a commit"));
      }
    });
    Counted failed = new Counted();
    timer[0].bindMeters(failed);
    timer[0].sweepAtOrBefore(System.currentTimeMillis());
    assertThat(sweeping.await(10, TimeUnit.SECONDS)).isTrue();
    timer[0].stop();
    assertThat(failed.failures.get()).isZero();
  }

  @Test
  void aSweepThatFailsWhileRunning_isCounted() throws Exception {
    CountDownLatch failedOnce = new CountDownLatch(1);
    EngineTimer[] timer = new EngineTimer[1];
    timer[0] = new EngineTimer("test-timer", () -> {
      timer[0].sweepStarted();
      timer[0].sweepFailed(new KvException("database or disk is full"));
      failedOnce.countDown();
    });
    Counted failed = new Counted();
    timer[0].bindMeters(failed);
    timer[0].sweepAtOrBefore(System.currentTimeMillis());
    assertThat(failedOnce.await(10, TimeUnit.SECONDS)).isTrue();
    timer[0].stop();
    assertThat(failed.failures.get()).isEqualTo(1);
  }

  /** Counts the sweeps that failed; every other meter is dropped. */
  private static final class Counted implements MeterSink {
    final AtomicLong failures = new AtomicLong();

    @Override
    public LongConsumer counter(String name, String description, String... tags) {
      return name.equals("kvasir.engine.sweeps") && tags[1].equals("failed")
          ? failures::addAndGet : n -> { };
    }

    @Override
    public void functionCounter(String name, String description, DoubleSupplier value,
        String... tags) {}

    @Override
    public DoubleConsumer summary(String name, String description, String... tags) {
      return v -> { };
    }

    @Override
    public LongConsumer timer(String name, String description, String... tags) {
      return n -> { };
    }

    @Override
    public void gauge(String name, String description, DoubleSupplier value, String... tags) {}
  }
}
