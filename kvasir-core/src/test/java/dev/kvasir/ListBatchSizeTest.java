package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sizes of the reads a list asks the engine for (docs/list.md §2). */
class ListBatchSizeTest {
  private static final int ENTRIES = 1_234;

  /** The memory engine, recording the limit of every range read. */
  private static final class Recording implements KvEngine {
    final MemoryEngine inner = MemoryEngine.open();
    final List<Integer> limits = new ArrayList<>();

    @Override
    public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency c) {
      ranges.forEach(r -> limits.add(r.limit()));
      return inner.snapshotRead(ranges, c);
    }

    @Override
    public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
      return inner.atomicWrite(write);
    }

    @Override
    public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
      return inner.dequeueNext(timeout);
    }

    @Override
    public EngineWatch watch(List<RawKey> keys) {
      return inner.watch(keys);
    }

    @Override
    public void close() {
      inner.close();
    }
  }

  private final Recording engine = new Recording();
  private final Kv kv = Kv.of(engine);

  @BeforeEach
  void fill() {
    for (int i = 0; i < ENTRIES; i += 100) {
      AtomicOperation op = kv.atomic();
      for (int j = i; j < Math.min(i + 100, ENTRIES); j++) {
        op.set(KvKey.of("n", j), j);
      }
      op.commit();
    }
    engine.limits.clear();
  }

  /** Lists under {@code ["n"]} and returns the limits of the reads it took. */
  private List<Integer> reads(ListOptions options, int expectedEntries) {
    int i = 0;
    for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("n")), options)) {
      assertThat(e.key()).isEqualTo(KvKey.of("n", i));
      i++;
    }
    assertThat(i).isEqualTo(expectedEntries);
    return engine.limits;
  }

  @Test
  void withoutABatchSize_eachReadIsTwiceTheLast_upTo500() {
    assertThat(reads(ListOptions.defaults(), ENTRIES)).containsExactly(100, 200, 400, 500, 500);
  }

  @Test
  void aChosenBatchSize_isKeptForEveryRead() {
    assertThat(reads(ListOptions.defaults().batchSize(100), ENTRIES))
        .hasSize(13).containsOnly(100);
  }

  @Test
  void withALimit_theFirstReadIsTheLimit_andTheLastOnlyWhatIsLeft() {
    assertThat(reads(ListOptions.defaults().limit(250), 250)).containsExactly(250);
    engine.limits.clear();
    assertThat(reads(ListOptions.defaults().limit(1_100), 1_100)).containsExactly(500, 500, 100);
  }

  @Test
  void aListStoppedEarly_readsOnlyItsFirstBatch() {
    KvListIterator it = kv.list(ListSelector.prefix(KvKey.of("n")));
    for (int i = 0; i < 100; i++) {
      it.next();
    }
    assertThat(engine.limits).containsExactly(100);
  }
}
