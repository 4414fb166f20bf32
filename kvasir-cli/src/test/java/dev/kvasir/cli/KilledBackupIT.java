package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.testkit.KilledWriters;
import dev.kvasir.testkit.powercut.PowerCutFs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir backup}, following a SQLite file that is being written, killed with SIGKILL and
 * started again each time, as a service manager restarts it: first in its first copy, once that
 * has written blocks past the backup's last commit (a copy of 12 MB passes the 8 MiB from which
 * they go to the file as it goes: docs/dag-engine.md §2, "Large transactions"), then five times
 * at a random moment after it printed a copy. After each kill the backup opens at a state the
 * database was in, with at least the entries of the last copy printed, and at the end it holds
 * the database exactly (docs/backup.md §2). The second test does the same with the backup on
 * a file system whose power is cut after each kill (PowerCutFs, docs/power-cut.md).
 * {@code -Dkilled.seed=N} replays the moments of a failed run, and what each cut kept.
 */
class KilledBackupIT {
  /** About 12 MB of entries, past the 8 MiB from which a copy writes its blocks as it goes. */
  private static final int BULK = 12_000;
  private static final int BULK_BYTES = 1_000;
  private static final int ROUNDS = 6;

  @TempDir Path dir;

  @Test
  void aBackupKilledAtRandomMoments_keepsAStateTheDatabaseWasIn_andCatchesUpWhenRestarted()
      throws Exception {
    killRepeatedly(dir.resolve("bk"), random -> "");
  }

  /**
   * The same with the power cut after each kill, the backup on a PowerCutFs: a copy it printed
   * must have been on stable storage (docs/power-cut.md).
   */
  @Test
  void aBackupWhosePowerIsCut_keepsTheLastCopyItPrinted() throws Exception {
    try (PowerCutFs disk = PowerCutFs.mount(dir.resolve("disk"))) {
      killRepeatedly(disk.path().resolve("bk"), disk::cutPower);
    }
  }

  private void killRepeatedly(Path backupDir, KilledWriters.AfterKill afterKill)
      throws Exception {
    Jar kvasir = new Jar(dir);
    long seed = Long.getLong("killed.seed", System.nanoTime());
    Random random = new Random(seed);
    String app = dir.resolve("app.sqlite3").toString();
    String backup = "dag:" + backupDir;
    try (Kv kv = Kv.open(app)) {
      for (int i = 0; i < BULK; i += 500) { // a commit takes at most 1 000 mutations
        var batch = kv.atomic();
        for (int j = i; j < i + 500; j++) {
          batch.set(KvKey.of("bulk", j), bulkValue(j));
        }
        assertThat(batch.commit().ok()).isTrue();
      }

      AtomicBoolean writing = new AtomicBoolean(true);
      CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
        int n = 0;
        while (writing.get()) {
          kv.atomic().set(KvKey.of("step", n), "step " + n).set(KvKey.of("steps"), n + 1)
              .commit();
          n++;
        }
        return n;
      });
      for (int round = 1; round <= ROUNDS; round++) {
        Process follower = kvasir.start("backup", "--db", app, "--to", backup, "--json");
        CompletableFuture<String> errors = Jar.errorsOf(follower);
        Copies copies = new Copies(follower);
        String when;
        if (round == 1) {
          // In the first copy, once it has written blocks past its last commit.
          kvasir.awaitWriting(follower, backupDir.resolve("blocks.kvdag").toString(), 8 << 20);
          when = "round 1, while its first copy's blocks went to the file";
        } else {
          assertThat(copies.first.await(60, TimeUnit.SECONDS))
              .as("round %d: a copy was made; %s", round, errors.getNow("")).isTrue();
          long pause = random.nextInt(1_500);
          Thread.sleep(pause);
          when = "round " + round + " (seed " + seed + "), " + pause + " ms after its first copy";
        }
        assertThat(follower.isAlive()).as("the backup still follows: %s", errors.getNow(""))
            .isTrue();
        follower.destroyForcibly(); // SIGKILL
        assertThat(follower.waitFor(30, TimeUnit.SECONDS)).isTrue();
        copies.reader.join(30_000);
        String after = afterKill.act(random);
        if (!after.isEmpty()) {
          when += "; after the kill: " + after;
        }
        try (Kv copy = Kv.open(backup)) {
          long entries = assertAStateOfTheDatabase(copy, when);
          assertThat(entries).as("%s: entries against those of the last copy it printed", when)
              .isGreaterThanOrEqualTo(copies.lastEntries);
        }
      }
      writing.set(false);
      assertThat(writer.get(60, TimeUnit.SECONDS)).as("commits while the backups ran")
          .isPositive();
    }
    Jar.Run last = kvasir.run("backup", "--db", app, "--to", backup, "--once");
    assertThat(last.exit()).as(last.err()).isZero();
    assertThat(kvasir.fingerprint(backup)).isEqualTo(kvasir.fingerprint(app));
  }

  private static String bulkValue(int i) {
    return String.valueOf((char) ('a' + i % 26)).repeat(BULK_BYTES) + i;
  }

  /**
   * The bulk whole or absent (it was written before the first backup started, so the first
   * state a backup copies holds all of it), and steps 0 to {@code steps - 1} exactly, since
   * each step was written in one commit with the count.
   *
   * @return the entries of that state
   */
  private static long assertAStateOfTheDatabase(Kv copy, String when) {
    int bulk = 0;
    for (KvEntry e : copy.list(ListSelector.prefix(KvKey.of("bulk")))) {
      assertThat(e.value()).as(when).isEqualTo(bulkValue(bulk));
      bulk++;
    }
    assertThat(bulk).as("%s: the bulk, whole or not at all", when).isIn(0, BULK);
    KvEntry steps = copy.get(KvKey.of("steps"));
    long counted = steps.exists() ? steps.value(Long.class) : 0;
    long found = 0;
    for (KvEntry e : copy.list(ListSelector.prefix(KvKey.of("step")))) {
      assertThat((long) e.key().part(1, Integer.class)).as("%s: the steps without a gap", when)
          .isEqualTo(found);
      found++;
    }
    assertThat(found).as("%s: the steps against their count", when).isEqualTo(counted);
    return bulk + found + (steps.exists() ? 1 : 0);
  }

  /** The copies a following backup prints, one JSON object a line, as it makes them. */
  private static final class Copies {
    final CountDownLatch first = new CountDownLatch(1);
    final Thread reader;
    volatile long lastEntries;

    Copies(Process follower) {
      reader = new Thread(() -> {
        try (BufferedReader lines = follower.inputReader(StandardCharsets.UTF_8)) {
          for (String line; (line = lines.readLine()) != null; ) {
            lastEntries = Render.JSON.readTree(line).get("entries").asLong();
            first.countDown();
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      reader.start();
    }
  }
}
