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
   * A load schedules the sweep of what it stored, as a commit does: left to the sweep every
   * {@link dev.kvasir.engine.Expiry#SWEEP_AT_LEAST_EVERY_MS}, it would come after the wait.
   * The load comes once an earlier entry has been swept, so that no sweep (the one an engine
   * may run as it opens) is left to find the loaded entry by chance.
   */
  @Test
  void anEntryLoadedWithAnExpiry_isSweptWhenItExpires() throws Exception {
    requireEngineMeters();
    assumeTrue(subject().copiesEntries(), "the engine cannot load entries");
    kv.bindMeters(sink);
    kv.set(key("earlier"), "lived", Duration.ofMillis(50));
    assertThat(await(() -> sink.count("kvasir.engine.swept.entries"), 1)).isEqualTo(1);
    engine.load(List.of(new StoredEntry(key("short").raw(), EncodedValue.of("lived"),
        Versionstamp.ofVersion(7), System.currentTimeMillis() + 300)));
    assertThat(await(() -> sink.count("kvasir.engine.swept.entries"), 2)).isEqualTo(2);
    assertThat(kv.get(key("short")).exists()).isFalse();
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
