package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.KilledWriters;
import dev.kvasir.testkit.powercut.PowerCutFs;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power is cut under a process writing a SQLite file, ten times over: the writer is killed,
 * every write no {@code fsync} made stable is dropped but for a random part (PowerCutFs), and
 * the file must open with every acknowledged commit and none half-applied (KilledWriters).
 * {@code -Dkilled.seed=N} replays the moments and the writes kept.
 */
class PowerCutWriterIT {
  @TempDir Path dir;

  @Test
  void thePowerCutAtRandomMoments_losesNoAcknowledgedCommit_andHalfAppliesNone()
      throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    try (PowerCutFs disk = PowerCutFs.mount(dir.resolve("disk"))) {
      String file = disk.path().resolve("cut.sqlite3").toString();
      int[] committed = KilledWriters.killRepeatedly(file, seed, disk::cutPower);
      assertThat(Arrays.stream(committed).sum()).as("commits over the writers").isPositive();
    }
  }
}
