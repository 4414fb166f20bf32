package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.QueueHandler;
import dev.kvasir.QueueListener;
import dev.kvasir.testkit.RecordingMeterSink;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Two instances on one database whose machines' clocks disagree by a minute (a machine without
 * NTP, a VM resumed from a pause). By its own clock, the instance running ahead counted the
 * other's queue lease as ended, failed the delivery while its handler still ran and delivered the
 * message again; and it saw entries expire a minute early. Both keep time by the server's clock
 * now (docs/postgres.md §11).
 */
class ClockSkewIT {
  private static final long AHEAD_MS = 60_000;

  @Test
  void anInstanceWhoseClockRunsAhead_neitherTakesOverARunningMessage_norExpiresEarly()
      throws Exception {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("skew");
    LongSupplier ahead = () -> System.currentTimeMillis() + AHEAD_MS;
    try (Kv onTime = Kv.of(PostgresEngine.open(PostgresConfig.of(url)));
        Kv fast = Kv.of(PostgresEngine.open(PostgresConfig.of(url), ahead))) {
      RecordingMeterSink meters = new RecordingMeterSink();
      fast.bindMeters(meters);
      // The server's clock, as the fast machine measures it: a minute behind its own.
      assertThat(meters.read("kvasir.postgres.clock.offset.seconds")).isBetween(-61.0, -59.0);
      onTime.set(KvKey.of("session"), "alive", Duration.ofSeconds(30));
      assertThat(fast.get(KvKey.of("session")).value()).isEqualTo("alive");

      onTime.enqueue("job");
      AtomicInteger deliveries = new AtomicInteger();
      CountDownLatch running = new CountDownLatch(1);
      QueueHandler slow = message -> {
        deliveries.incrementAndGet();
        running.countDown();
        Thread.sleep(7_000); // past the first cleanups of the other instance
      };
      try (QueueListener first = onTime.listenQueue(slow)) {
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        // Listening makes an instance look for leases that ended, at once and every 5 s.
        try (QueueListener second = fast.listenQueue(slow)) {
          Thread.sleep(9_000);
        }
      }
      assertThat(deliveries.get()).as("deliveries of the one message").isEqualTo(1);
    }
  }

  @Test
  void aReadOnlyInstanceWhoseClockIsSetAhead_measuresAgain_andSeesNothingExpireEarly() {
    // A read-only instance does not sweep, and the sweep was where the offset was measured
    // again: it measured only at open, and its expiry cut-off followed its clock from then on.
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("skewro");
    AtomicLong setAhead = new AtomicLong();
    LongSupplier clock = () -> System.currentTimeMillis() + setAhead.get();
    try (Kv writer = Kv.of(PostgresEngine.open(PostgresConfig.of(url)));
        Kv reader = Kv.of(PostgresEngine.open(PostgresConfig.of(url).readOnly(true), clock))) {
      writer.set(KvKey.of("session"), "alive", Duration.ofSeconds(30));
      assertThat(reader.get(KvKey.of("session")).value()).isEqualTo("alive");
      setAhead.set(5 * 60_000); // the machine's clock set five minutes ahead after the open
      assertThat(reader.get(KvKey.of("session")).value()).isEqualTo("alive");
      RecordingMeterSink meters = new RecordingMeterSink();
      reader.bindMeters(meters);
      assertThat(meters.read("kvasir.postgres.clock.offset.seconds")).isBetween(-301.0, -299.0);
    }
  }
}
