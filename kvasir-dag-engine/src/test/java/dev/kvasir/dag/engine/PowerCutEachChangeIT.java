package dev.kvasir.dag.engine;

import dev.kvasir.testkit.KilledWriters;
import dev.kvasir.testkit.powercut.PowerCutFs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power is cut after each of the first changes a writer makes to a new {@code dag:}
 * database: its creation and its first commits (KilledWriters#cutAtEachChange). {@code
 * -Dkilled.seed=N} replays what each cut keeps, {@code -Dkilled.changes=N} goes further.
 */
class PowerCutEachChangeIT {
  @TempDir Path dir;

  @Test
  void thePowerCutAfterEachOfTheFirstChanges_losesNoAcknowledgedCommit() throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    int changes = Integer.getInteger("killed.changes", 40);
    try (PowerCutFs disk = PowerCutFs.mount(dir.resolve("disk"))) {
      KilledWriters.cutAtEachChange(disk, n -> "dag:" + disk.path().resolve("cut-" + n),
          changes, seed);
    }
  }
}
