package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.store.CorruptBlockException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits as history: every past state readable, the log intact after damage at its end. */
class DagHistoryTest {
  @TempDir Path dir;

  private Path db() {
    return dir.resolve("db");
  }

  /** Writes n commits, k = i for commit i; returns each commit's versionstamp. */
  private List<Versionstamp> writeCommits(int n) {
    List<Versionstamp> stamps = new ArrayList<>();
    try (Kv kv = Kv.open("dag:" + db())) {
      for (int i = 1; i <= n; i++) {
        stamps.add(kv.set(KvKey.of("k"), i).versionstamp());
      }
    }
    return stamps;
  }

  private static long valueAt(String location) {
    try (Kv kv = Kv.open(location)) {
      return kv.get(KvKey.of("k")).value(Long.class);
    }
  }

  @Test
  void everyCommit_isReadableByItsVersionstampAndCid() {
    List<Versionstamp> stamps = writeCommits(5);
    for (int i = 0; i < stamps.size(); i++) {
      assertThat(valueAt("dag:" + db() + "?at=" + stamps.get(i))).isEqualTo(i + 1);
    }
    try (DagEngine dag = DagEngine.open(db())) {
      List<CommitRecord> log = dag.log();
      assertThat(log).hasSize(6); // the empty database's record, then five commits
      CommitRecord third = log.get(3);
      assertThat(third.versionstamp()).isEqualTo(stamps.get(2));
    }
  }

  @Test
  void aTime_readsTheNewestCommitMadeAtOrBeforeIt() throws Exception {
    writeCommits(2);
    String between;
    try (DagEngine dag = DagEngine.open(db())) {
      between = dag.head().time().toString();
    }
    Thread.sleep(5);
    writeCommits(1); // sets k = 1 again, after `between`
    try (Kv kv = Kv.open("dag:" + db())) {
      kv.set(KvKey.of("k"), 42);
    }
    assertThat(valueAt("dag:" + db() + "?at=" + between)).isEqualTo(2);
    // With a space for the 'T', as SQL writes it, and with an offset instead of Z.
    assertThat(valueAt("dag:" + db() + "?at=" + between.replace('T', ' '))).isEqualTo(2);
    assertThat(valueAt("dag:" + db() + "?at=" + OffsetDateTime.parse(between)
        .withOffsetSameInstant(ZoneOffset.ofHours(2)))).isEqualTo(2);
    assertThat(valueAt("dag:" + db())).isEqualTo(42);
  }

  @Test
  void aDirectoryThatCannotBeMade_isNamedOnce_withTheReason() throws Exception {
    // Java's own message named it twice and gave no reason for a missing file:
    // "cannot open KV/DAG database /proc/x: /proc/x".
    Path file = Files.createFile(dir.resolve("a-file"));
    assertThatThrownBy(() -> Kv.open("dag:" + file.resolve("db")))
        .isInstanceOf(KvException.class)
        .hasMessage("cannot open KV/DAG database " + file.resolve("db") + ": Not a directory");
    assertThatThrownBy(() -> Kv.open("dag:/proc/kvasir-dag-test"))
        .isInstanceOf(KvException.class).hasMessage(
            "cannot open KV/DAG database /proc/kvasir-dag-test: no such file or directory");
  }

  @Test
  void aPastState_refusesWrites_andBadAtsAreNamed() {
    List<Versionstamp> stamps = writeCommits(2);
    try (Kv kv = Kv.open("dag:" + db() + "?at=" + stamps.get(0))) {
      assertThatThrownBy(() -> kv.set(KvKey.of("k"), 9)).isInstanceOf(KvException.class)
          .hasMessageContaining("reading only");
    }
    assertThatThrownBy(() -> Kv.open("dag:" + db() + "?at=yesterday"))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("ISO-8601");
    assertThatThrownBy(() -> Kv.open("dag:" + db() + "?at=1970-01-01T00:00:00Z"))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("no commit");
    assertThatThrownBy(() -> Kv.open("dag:" + dir.resolve("none") + "?at=" + stamps.get(0)))
        .isInstanceOf(KvException.class).hasMessageContaining("no KV/DAG database");
  }

  @Test
  void aTornLastCommit_isCutOff_andTheOneBeforeStays() throws Exception {
    writeCommits(3);
    Path file = db().resolve(BlockLog.FILE_NAME);
    long committed = Files.size(file);
    try (Kv kv = Kv.open("dag:" + db())) {
      kv.set(KvKey.of("k"), 4);
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() - 3); // the last commit's marker is torn
    }
    assertThat(valueAt("dag:" + db())).isEqualTo(3);
    assertThat(Files.size(file)).isEqualTo(committed);
    try (Kv kv = Kv.open("dag:" + db())) {
      kv.set(KvKey.of("k"), 5);
    }
    assertThat(valueAt("dag:" + db())).isEqualTo(5);
  }

  @Test
  void aFlippedByte_failsTheReadNamingTheBlock() throws Exception {
    try (Kv kv = Kv.open("dag:" + db())) {
      kv.set(KvKey.of("k"), "a value long enough to find in the file");
    }
    Path file = db().resolve(BlockLog.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    int at = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)
        .indexOf("long enough");
    bytes[at] ^= 1;
    Files.write(file, bytes);
    try (DagEngine engine = DagEngine.open(db()); Kv kv = Kv.of(engine)) {
      assertThat(engine.storageProblem()).isEmpty();
      assertThatThrownBy(() -> kv.get(KvKey.of("k")))
          .isInstanceOf(CorruptBlockException.class).hasMessageContaining("bafy")
          .hasMessageContaining("damaged");
      assertThat(engine.storageProblem()).as("what a server's /readyz reports")
          .hasValueSatisfying(why -> assertThat(why).contains("damaged in " + file)
              .contains("restore the database from a backup or replica"));
    }
  }

  @Test
  void unchangedStates_haveUnchangedFingerprints() {
    try (DagEngine dag = DagEngine.open(db()); Kv kv = Kv.of(dag)) {
      kv.set(KvKey.of("a"), 1);
      var before = dag.fingerprint();
      kv.set(KvKey.of("b"), 2);
      assertThat(dag.fingerprint()).isNotEqualTo(before);
      kv.delete(KvKey.of("b"));
      assertThat(dag.fingerprint()).isEqualTo(before);
    }
  }

  @Test
  void anInterruptedThread_neitherFailsNorBreaksTheDatabase() throws Exception {
    try (Kv kv = Kv.open("dag:" + db())) {
      for (int i = 0; i < 500; i++) {
        kv.set(KvKey.of("k", i), "v" + i);
      }
      Object[] seen = new Object[2];
      Thread t = new Thread(() -> {
        Thread.currentThread().interrupt();
        seen[0] = kv.get(KvKey.of("k", 5)).value();
        kv.set(KvKey.of("k", 6), "written while interrupted");
        seen[1] = Thread.currentThread().isInterrupted();
      });
      t.start();
      t.join();
      assertThat(seen[0]).isEqualTo("v5");
      assertThat(seen[1]).as("the interrupt is kept for the caller").isEqualTo(true);
      assertThat(kv.get(KvKey.of("k", 7)).value()).isEqualTo("v7");
      assertThat(kv.get(KvKey.of("k", 6)).value()).isEqualTo("written while interrupted");
    }
    assertThat(keySix("dag:" + db())).isEqualTo("written while interrupted");
  }

  private static Object keySix(String location) {
    try (Kv kv = Kv.open(location)) {
      return kv.get(KvKey.of("k", 6)).value();
    }
  }
}
