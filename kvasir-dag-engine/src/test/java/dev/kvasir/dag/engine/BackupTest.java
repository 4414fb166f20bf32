package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvException;
import dev.kvasir.dag.store.CorruptBlockException;
import dev.kvasir.spi.StoredEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A continuous backup of a SQLite database, restored at every state it copied. */
class BackupTest {
  @TempDir Path dir;

  /** A state as restore must reproduce it: keys, values, versionstamps and expiries. */
  static List<StoredEntry> dump(Kv kv) {
    List<StoredEntry> out = new ArrayList<>();
    kv.engine().dump(out::add);
    return out;
  }

  private record Copied(Backup.Snapshot snapshot, List<StoredEntry> state) {}

  @Test
  void everyCopiedState_isRestoredExactly_byTimeAndByVersionstamp() throws Exception {
    Random random = new Random(7);
    List<Copied> copies = new ArrayList<>();
    try (Kv source = Kv.open(dir.resolve("app.sqlite3").toString());
        Backup backup = Backup.open(dir.resolve("bk"))) {
      for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 30; i++) {
          KvKey key = KvKey.of("k", random.nextInt(60));
          switch (random.nextInt(4)) {
            case 0 -> source.delete(key);
            case 1 -> source.set(key, "expiring " + round, Duration.ofHours(1 + round));
            default -> source.set(key, List.of(round, i, "v".repeat(random.nextInt(40))));
          }
        }
        Backup.Snapshot s = backup.take(source.engine()).orElseThrow();
        copies.add(new Copied(s, dump(source)));
        assertThat(s.entries()).isEqualTo(copies.get(round).state().size());
        Thread.sleep(3); // distinct times
      }
    }
    for (int round = 0; round < copies.size(); round++) {
      Copied c = copies.get(round);
      String at = round % 2 == 0 ? c.snapshot().time().toString()
          : dev.kvasir.base.Versionstamp.ofVersion(c.snapshot().version()).toString();
      Path target = dir.resolve("restored-" + round + ".sqlite3");
      try (Kv restored = Kv.open(target.toString())) {
        PointInTime.Restored r = PointInTime.restore(dir.resolve("bk"), at, restored.engine());
        assertThat(r.entries()).isEqualTo(c.state().size());
        assertThat(dump(restored)).as("round %d at %s", round, at).isEqualTo(c.state());
        // the restored database's next commit is above every restored versionstamp
        var next = restored.set(KvKey.of("after"), 1).versionstamp();
        c.state().forEach(e -> assertThat(next).isGreaterThan(e.versionstamp()));
      }
    }
  }

  @Test
  void aCopy_storesOnlyWhatChanged() {
    try (Kv source = Kv.open(dir.resolve("app.sqlite3").toString());
        Backup backup = Backup.open(dir.resolve("bk"))) {
      var atomic = source.atomic();
      for (int i = 0; i < 5000; i++) {
        atomic.set(KvKey.of("user", i), "a value of some length for user " + i);
        if (i % 500 == 499) {
          atomic.commit();
          atomic = source.atomic();
        }
      }
      Backup.Snapshot full = backup.take(source.engine()).orElseThrow();
      source.set(KvKey.of("user", 1234), "changed");
      Backup.Snapshot one = backup.take(source.engine()).orElseThrow();
      assertThat(one.changed()).isEqualTo(1);
      assertThat(one.bytes()).isLessThan(full.bytes() / 20);
      assertThat(backup.takeIfChanged(source.engine())).isEmpty();
    }
  }

  /**
   * A copy given up half-way ({@code kvasir backup} on SIGTERM) commits nothing and cuts off the
   * blocks it had already written past the last commit, so the backup is as it was, byte for
   * byte, and the next copy is whole.
   */
  @Test
  void aCopyGivenUpHalfWay_leavesTheBackupByteForByte_andTheNextCopyIsWhole() throws Exception {
    Path log = dir.resolve("bk").resolve("blocks.kvdag");
    try (Kv source = Kv.open(dir.resolve("app.sqlite3").toString());
        Backup backup = Backup.open(dir.resolve("bk"))) {
      for (int i = 0; i < 100; i++) {
        source.set(KvKey.of("early", i), i);
      }
      Backup.Snapshot first = backup.take(source.engine()).orElseThrow();
      byte[] before = Files.readAllBytes(log);
      String big = "x".repeat(2_000);
      for (int batch = 0; batch < 20; batch++) { // 300 of 2 kB, within Deno's 800 KiB a commit
        var atomic = source.atomic();
        for (int i = 0; i < 300; i++) {
          atomic.set(KvKey.of("late", batch * 300 + i), big + i);
        }
        atomic.commit();
      }
      source.delete(KvKey.of("early", 7));

      int[] asked = {0};
      long[] logBytesWhenStopped = {0};
      assertThatThrownBy(() -> backup.take(source.engine(), () -> {
        if (++asked[0] < 5_000) {
          return false;
        }
        logBytesWhenStopped[0] = log.toFile().length();
        return true;
      })).isInstanceOf(CancellationException.class);
      assertThat(logBytesWhenStopped[0]).as("blocks written past the commit (over 8 MiB)")
          .isGreaterThan(before.length + (8L << 20));
      assertThat(Files.readAllBytes(log)).as("cut back to the first copy").isEqualTo(before);
      assertThat(backup.head()).isEqualTo(first.commit());
      assertThat(backup.last().orElseThrow().entries()).isEqualTo(100);

      Backup.Snapshot whole = backup.take(source.engine()).orElseThrow();
      assertThat(whole.changed()).isEqualTo(6_001);
      assertThat(whole.entries()).isEqualTo(6_099);
      try (Kv restored = Kv.open(dir.resolve("restored.sqlite3").toString())) {
        PointInTime.restore(dir.resolve("bk"), null, restored.engine());
        assertThat(dump(restored)).isEqualTo(dump(source));
      }
    }
  }

  @Test
  void aReopenedBackup_continuesWhereItEnded() {
    try (Kv source = Kv.open(dir.resolve("app.sqlite3").toString())) {
      source.set(KvKey.of("a"), 1);
      source.set(KvKey.of("b"), 2);
      try (Backup backup = Backup.open(dir.resolve("bk"))) {
        backup.take(source.engine()).orElseThrow();
      }
      try (Backup backup = Backup.open(dir.resolve("bk"))) {
        assertThat(backup.take(source.engine())).isEmpty();
        source.delete(KvKey.of("a"));
        Backup.Snapshot s = backup.take(source.engine()).orElseThrow();
        assertThat(s.changed()).isEqualTo(1);
        assertThat(s.entries()).isEqualTo(1);
      }
    }
  }

  @Test
  void anotherDatabase_behindTheBackup_isRefused() {
    try (Backup backup = Backup.open(dir.resolve("bk"))) {
      try (Kv first = Kv.open(dir.resolve("first.sqlite3").toString())) {
        for (int i = 0; i < 5; i++) {
          first.set(KvKey.of("n", i), i);
        }
        backup.take(first.engine()).orElseThrow();
      }
      try (Kv other = Kv.open(":memory:")) {
        other.set(KvKey.of("x"), 1);
        assertThatThrownBy(() -> backup.take(other.engine())).isInstanceOf(KvException.class)
            .hasMessageContaining("not the database this backup follows");
      }
    }
  }

  @Test
  void restore_refusesADamagedBackup_namingTheBlock_andWritesNothing() throws Exception {
    try (Kv source = Kv.open(":memory:"); Backup backup = Backup.open(dir.resolve("bk"))) {
      source.set(KvKey.of("a"), "a value long enough to find in the file");
      source.set(KvKey.of("b"), 2);
      backup.take(source.engine()).orElseThrow();
    }
    Path file = dir.resolve("bk").resolve(BlockLog.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf("long enough")] ^= 1;
    Files.write(file, bytes);
    try (Kv target = Kv.open(":memory:")) {
      assertThatThrownBy(() -> PointInTime.restore(dir.resolve("bk"), null, target.engine()))
          .isInstanceOf(CorruptBlockException.class).hasMessageContaining("bafy")
          .hasMessageContaining("damaged");
      assertThat(dump(target)).isEmpty();
    }
  }

  /** A restore given up half-way ({@code kvasir restore} on SIGTERM) commits nothing. */
  @Test
  void aRestoreGivenUpHalfWay_commitsNothing_andCanRunAgain() {
    try (Kv source = Kv.open(":memory:"); Backup backup = Backup.open(dir.resolve("bk"))) {
      for (int batch = 0; batch < 3; batch++) {
        var atomic = source.atomic();
        for (int i = 0; i < 1_000; i++) {
          atomic.set(KvKey.of("k", batch * 1_000 + i), "value " + i);
        }
        atomic.commit();
      }
      backup.take(source.engine()).orElseThrow();
      try (Kv target = Kv.open(dir.resolve("restored.sqlite3").toString())) {
        int[] asked = {0};
        // Past the 1 024 puts the SQLite engine writes to its transaction at a time.
        assertThatThrownBy(() -> PointInTime.restore(dir.resolve("bk"), null, target.engine(),
            () -> ++asked[0] > 2_500)).isInstanceOf(CancellationException.class);
        assertThat(asked[0]).isEqualTo(2_501);
        assertThat(dump(target)).isEmpty();

        assertThat(PointInTime.restore(dir.resolve("bk"), null, target.engine(), () -> false)
            .entries()).isEqualTo(3_000);
        assertThat(dump(target)).isEqualTo(dump(source));
      }
    }
  }

  @Test
  void restore_refusesATargetWithEntries() {
    try (Kv source = Kv.open(":memory:"); Backup backup = Backup.open(dir.resolve("bk"))) {
      source.set(KvKey.of("a"), 1);
      backup.take(source.engine()).orElseThrow();
    }
    try (Kv target = Kv.open(":memory:")) {
      target.set(KvKey.of("mine"), 1);
      assertThatThrownBy(() -> PointInTime.restore(dir.resolve("bk"), null, target.engine()))
          .isInstanceOf(KvException.class).hasMessageContaining("holds entries");
      assertThat(dump(target)).hasSize(1);
    }
  }

  @Test
  void diff_namesTheKeysThatChangedBetweenTwoCopies() {
    String first;
    try (Kv source = Kv.open(":memory:"); Backup backup = Backup.open(dir.resolve("bk"))) {
      source.set(KvKey.of("same"), 1);
      source.set(KvKey.of("gone"), 1);
      source.set(KvKey.of("changed"), 1);
      first = backup.take(source.engine()).orElseThrow().commit().toString();
      source.delete(KvKey.of("gone"));
      source.set(KvKey.of("changed"), 2);
      source.set(KvKey.of("new"), 1);
      backup.take(source.engine()).orElseThrow();
    }
    List<KeyspaceDiff.Change> changes = new ArrayList<>();
    assertThat(KeyspaceDiff.between(dir.resolve("bk"), first, null, changes::add)).isTrue();
    assertThat(changes).extracting(c -> KvKey.decode(c.key().bytes()).toString()
        + (c.before() == null ? "+" : c.after() == null ? "-" : "~"))
        .containsExactly(KvKey.of("changed") + "~", KvKey.of("gone") + "-",
            KvKey.of("new") + "+");
  }

  @Test
  void diff_stopsAtTheFirstChangeItsSinkRefuses() {
    String first;
    try (Kv source = Kv.open(":memory:"); Backup backup = Backup.open(dir.resolve("bk"))) {
      source.set(KvKey.of("a"), 1);
      first = backup.take(source.engine()).orElseThrow().commit().toString();
      for (String k : List.of("b", "c", "d")) {
        source.set(KvKey.of(k), 1);
      }
      backup.take(source.engine()).orElseThrow();
    }
    List<KeyspaceDiff.Change> seen = new ArrayList<>();

    boolean whole = KeyspaceDiff.between(dir.resolve("bk"), first, null,
        c -> seen.add(c) && seen.size() < 2);

    assertThat(whole).isFalse();
    assertThat(seen).extracting(c -> KvKey.decode(c.key().bytes()))
        .containsExactly(KvKey.of("b"), KvKey.of("c"));
  }
}
