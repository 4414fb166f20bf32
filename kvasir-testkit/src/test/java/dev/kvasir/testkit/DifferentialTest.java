package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.base.Consistency;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.ReadRange;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The differential test must catch engines that are subtly wrong. */
class DifferentialTest {
  /** A memory engine whose reads pass through a distortion. */
  private static final class Distorted extends ForwardingEngine {
    private final UnaryOperator<ReadRange> distortion;

    Distorted(UnaryOperator<ReadRange> distortion) {
      super(MemoryEngine.open());
      this.distortion = distortion;
    }

    @Override
    public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency c) {
      return super.snapshotRead(ranges.stream().map(distortion).toList(), c);
    }
  }

  private static void assertCaught(UnaryOperator<ReadRange> distortion) {
    try (Kv broken = Kv.of(new Distorted(distortion)); Kv reference = Kv.of(MemoryEngine.open())) {
      assertThatThrownBy(() -> Differential.run(broken, reference, 1, 10_000))
          .isInstanceOf(AssertionError.class).hasMessageContaining("step ");
    }
  }

  /**
   * Each engine draws its own version steps. With seed 1099, step 68 checks a key that the
   * first commit may have written, against a stale versionstamp: when that was version 1,
   * about one run in five failed (35 of 200), the side that had drawn a first step of 1
   * passing the check. Forty runs of two correct engines must all agree.
   */
  @Test
  void twoCorrectEngines_agree_whateverVersionStepsTheyDraw() {
    for (int run = 0; run < 40; run++) {
      try (Kv tested = Kv.of(MemoryEngine.open()); Kv reference = Kv.of(MemoryEngine.open())) {
        Differential.run(tested, reference, 1099, 100);
      }
    }
  }

  @Test
  void anEngineIgnoringReverse_isCaught() {
    assertCaught(r -> new ReadRange(r.start(), r.end(), r.limit(), false));
  }

  @Test
  void anEngineReturningOneEntryTooFew_isCaught() {
    assertCaught(r -> r.limit() > 1 ? new ReadRange(r.start(), r.end(), r.limit() - 1,
        r.reverse()) : r);
  }

  @Test
  void anEngineWithAnInclusiveEnd_isCaught() {
    assertCaught(r -> new ReadRange(r.start(), r.end().append(0), r.limit(), r.reverse()));
  }
}
