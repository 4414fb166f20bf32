package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.KilledWriters;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process writing a {@code dag:} database is killed with SIGKILL at random moments, ten times
 * over: each time the database opens with every acknowledged commit and none half-applied, and
 * the next writer goes on (KilledWriters). {@code -Dkilled.seed=N} replays the moments of a
 * failed run.
 */
class DagKilledWriterIT {
  @TempDir Path dir;

  @Test
  void aWriterKilledAtRandomMoments_losesNoAcknowledgedCommit_andHalfAppliesNone()
      throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    String location = "dag:" + dir.resolve("killed");
    int[] committed = KilledWriters.killRepeatedly(location, seed);
    assertThat(Arrays.stream(committed).sum()).as("commits over the writers").isPositive();
  }
}
