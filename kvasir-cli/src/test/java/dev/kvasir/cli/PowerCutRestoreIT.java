package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.powercut.PowerCutFs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kvasir restore} to a disk whose power is cut (PowerCutFs, docs/power-cut.md §4): a
 * restore that said it was done is there after the cut, whole; one stopped at any of its last
 * changes (the database's close, its rename to the target and the sync of the directory) and
 * then cut leaves either nothing at the target or the whole restored database (docs/backup.md
 * §3). {@code -Dkilled.seed=N} replays what each cut kept.
 */
class PowerCutRestoreIT {
  private static final int ENTRIES = 2_000;
  /** The restore's last changes, each of which the disk stops after in turn. */
  private static final int LAST_CHANGES = 20;

  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void backup() {
    kvasir = new Jar(dir);
    Entries.write("dag:" + dir.resolve("bk"), ENTRIES, "value ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"restored-%d.sqlite3", "dag:restored-%d"})
  void theTargetAfterAPowerCut_isNothingOrTheWholeRestore(String name) throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    Random random = new Random(seed);
    try (PowerCutFs disk = PowerCutFs.mount(dir.resolve("disk"))) {
      String done = target(disk, name, 0);
      int before = disk.changes();
      Jar.Run run = kvasir.run("restore", "--from", "dag:bk", "--to", done);
      assertThat(run.exit()).as(run.err()).isZero();
      int changes = disk.changes() - before;
      String lost = disk.cutPower(random);
      assertThat(Entries.count(done)).as("the restore that finished, after a cut that lost: %s (seed"
          + " %d)", lost, seed).isEqualTo(ENTRIES);

      for (int n = Math.max(1, changes - LAST_CHANGES); n < changes; n++) {
        String target = target(disk, name, n);
        disk.freezeAfter(n);
        Process restore = kvasir.start("restore", "--from", "dag:bk", "--to", target);
        boolean finished = stoppedOrFinished(disk, restore);
        if (!finished) {
          restore.destroyForcibly(); // SIGKILL
          disk.releaseFrozen();
        }
        assertThat(restore.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(restore.exitValue()).as("killed, or finished").isEqualTo(finished ? 0 : 137);
        lost = disk.cutPower(random);
        String context = String.format("the cut after change %d of %d (seed %d), which lost: %s",
            n, changes, seed, lost);
        boolean there = Files.exists(Path.of(target.replaceFirst("^dag:", "")));
        assertThat(there || !finished).as("a finished restore is there; %s", context).isTrue();
        if (there) {
          assertThat(Entries.count(target)).as(context).isEqualTo(ENTRIES);
        }
        System.out.printf("restore cut after change %d of %d: %s%n", n, changes,
            finished ? "it had finished" : there ? "restored whole" : "nothing at the target");
      }
    }
  }

  /**
   * Waits until the disk stops or the restore ends; whether it ended, having finished. A restore
   * makes a few changes more or fewer from one run to the next (the kernel writes back the
   * pages of SQLite's {@code -shm} as it likes), so one may finish before the disk's stop.
   */
  private static boolean stoppedOrFinished(PowerCutFs disk, Process restore) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (restore.isAlive()) {
      if (disk.awaitFrozen(Duration.ofMillis(20))) {
        return false;
      }
      assertThat(System.nanoTime()).as("the disk stopped, or the restore ended, within 60 s")
          .isLessThan(deadline);
    }
    return true;
  }

  private static String target(PowerCutFs disk, String name, int n) {
    String path = disk.path().resolve(String.format(name.replaceFirst("^dag:", ""), n))
        .toString();
    return name.startsWith("dag:") ? "dag:" + path : path;
  }
}
