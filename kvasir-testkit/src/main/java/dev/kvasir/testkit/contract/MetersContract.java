package dev.kvasir.testkit.contract;

import static dev.kvasir.testkit.RecordingMeterSink.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.testkit.RecordingMeterSink;
import dev.kvasir.value.EncodedValue;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a database measures (docs/operations.md §5): commits by outcome on every engine, and on
 * engines that measure themselves, expiry sweeps and the queue's depth.
 */
public abstract class MetersContract extends ContractBase {
  private final RecordingMeterSink sink = new RecordingMeterSink();

  private void requireEngineMeters() {
    assumeTrue(subject().reportsEngineMeters(), "the engine measures nothing of its own");
  }

  @Test
  void commits_areCountedByOutcome() {
    kv.bindMeters(sink);
    kv.set(key("a"), 1);
    var stale = kv.get(key("a"));
    kv.set(key("a"), 2);
    assertThat(kv.atomic().check(stale).set(key("a"), 3).commit().ok()).isFalse();
    assertThat(sink.count("kvasir.commits{outcome=committed}")).isEqualTo(2);
    assertThat(sink.count("kvasir.commits{outcome=check_failed}")).isEqualTo(1);
  }

  @Test
  void anExpiredEntry_isSwept_andCounted() throws Exception {
    requireEngineMeters();
    kv.bindMeters(sink);
    kv.set(key("short"), "lived", Duration.ofMillis(50));
    assertThat(await(() -> sink.count("kvasir.engine.swept.entries"), 1)).isEqualTo(1);
    assertThat(sink.count("kvasir.engine.sweeps{outcome=done}")).isPositive();
    assertThat(sink.count("kvasir.engine.sweeps{outcome=failed}")).isZero();
  }

  /**
   * A commit whose entry expires sooner than the sweep already scheduled brings that sweep
   * forward; a sweep only at the later time would leave the entry stored for up to {@link
   * dev.kvasir.engine.Expiry#SWEEP_AT_LEAST_EVERY_MS}.
   */
  @Test
  void aCommitExpiringSooner_bringsTheScheduledSweepForward() throws Exception {
    requireEngineMeters();
    sweepAnEarlierEntry();
    kv.set(key("long"), "lived", Duration.ofHours(1));
    assertThat(kv.atomic().set(key("short"), "lived", Duration.ofMillis(300)).commit().ok())
        .isTrue();
    assertThat(await(() -> sink.count("kvasir.engine.swept.entries"), 2)).isEqualTo(2);
    assertThat(kv.get(key("long")).exists()).isTrue();
  }

  /**
   * A load schedules the sweep of what it stored, as a commit does: left to the sweep every
   * {@link dev.kvasir.engine.Expiry#SWEEP_AT_LEAST_EVERY_MS}, it would come after the wait.
   */
  @Test
  void anEntryLoadedWithAnExpiry_isSweptWhenItExpires() throws Exception {
    requireEngineMeters();
    assumeTrue(subject().copiesEntries(), "the engine cannot load entries");
    sweepAnEarlierEntry();
    engine.load(List.of(new StoredEntry(key("short").raw(), EncodedValue.of("lived"),
        Versionstamp.ofVersion(7), System.currentTimeMillis() + 300)));
    assertThat(await(() -> sink.count("kvasir.engine.swept.entries"), 2)).isEqualTo(2);
    assertThat(kv.get(key("short")).exists()).isFalse();
  }

  /**
   * Binds the meters and waits until an entry that expires in 50 ms has been swept. The writes a
   * test makes after it are then the only ones left to schedule a sweep: none the engine may run
   * as it opens is left to find them by chance.
   */
  private void sweepAnEarlierEntry() throws InterruptedException {
    kv.bindMeters(sink);
    kv.set(key("earlier"), "lived", Duration.ofMillis(50));
    assertThat(await(() -> sink.count("kvasir.engine.swept.entries"), 1)).isEqualTo(1);
  }

  @Test
  void theQueue_reportsItsMessagesByState_andTheAgeOfTheOldestDueOne() throws Exception {
    requireEngineMeters();
    assumeTrue(supportsQueues(), "this engine has no queue");
    kv.enqueue("due");
    kv.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
    Thread.sleep(20);
    kv.bindMeters(sink); // read at once, then every 5 s
    assertThat(await(() -> sink.read("kvasir.engine.queue.messages{state=ready}"), 1))
        .isEqualTo(1);
    assertThat(sink.read("kvasir.engine.queue.messages{state=delayed}")).isEqualTo(1);
    assertThat(sink.read("kvasir.engine.queue.messages{state=running}")).isZero();
    assertThat(sink.read("kvasir.engine.queue.oldest.ready.seconds")).isPositive();
  }

  /** With no message due the age is 0; the engines over JDBC reported the time since 1970. */
  @Test
  void aQueueWithNoDueMessage_reportsNoAge() throws Exception {
    requireEngineMeters();
    assumeTrue(supportsQueues(), "this engine has no queue");
    kv.enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
    kv.bindMeters(sink);
    assertThat(await(() -> sink.read("kvasir.engine.queue.messages{state=delayed}"), 1))
        .isEqualTo(1);
    assertThat(sink.read("kvasir.engine.queue.oldest.ready.seconds")).isZero();
  }
}
