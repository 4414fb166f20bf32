package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.KilledWriters;
import dev.kvasir.testkit.powercut.PowerCutFs;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power is cut under a process writing a {@code dag:} database, ten times over: the writer
 * is killed, every write no {@code fsync} made stable is dropped but for a random part
 * (PowerCutFs), and the database must open with every acknowledged commit and none
 * half-applied (KilledWriters). {@code -Dkilled.seed=N} replays the moments and the writes
 * kept.
 */
class PowerCutWriterIT {
  @TempDir Path dir;

  @Test
  void thePowerCutAtRandomMoments_losesNoAcknowledgedCommit_andHalfAppliesNone()
      throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    try (PowerCutFs disk = PowerCutFs.mount(dir.resolve("disk"))) {
      String location = "dag:" + disk.path().resolve("cut");
      int[] committed = KilledWriters.killRepeatedly(location, seed, disk::cutPower);
      assertThat(Arrays.stream(committed).sum()).as("commits over the writers").isPositive();
    }
  }
}
