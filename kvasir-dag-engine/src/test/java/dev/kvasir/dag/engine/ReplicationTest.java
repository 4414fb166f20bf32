package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvException;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.CorruptBlockException;
import dev.kvasir.dag.store.MissingBlockException;
import dev.kvasir.testkit.Blocking;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dag-to-dag and CAR replication: only missing blocks, every one verified, all or nothing. */
class ReplicationTest {
  @TempDir Path dir;

  private Path a() {
    return dir.resolve("a");
  }

  private Path b() {
    return dir.resolve("b");
  }

  private void write(Path db, int from, int to) {
    try (Kv kv = Kv.open("dag:" + db)) {
      for (int i = from; i < to; i++) {
        kv.set(KvKey.of("k", i), "value " + i);
      }
    }
  }

  private static List<Cid> commits(Path db) {
    try (BlockLog log = BlockLog.open(db, true)) {
      return log.commits();
    }
  }

  private static Cid fingerprint(Path db) {
    try (DagEngine engine = DagEngine.openReadOnly(db)) {
      return engine.fingerprint();
    }
  }

  @Test
  void aReplica_getsEveryCommit_andThenOnlyWhatItLacks() {
    write(a(), 0, 2000);
    Replication.Result full = Replication.replicate(a(), b());
    assertThat(commits(b())).isEqualTo(commits(a()));
    assertThat(fingerprint(b())).isEqualTo(fingerprint(a()));
    write(a(), 2000, 2001);
    Replication.Result one = Replication.replicate(a(), b());
    assertThat(one.commits()).isEqualTo(1);
    assertThat(one.blocks()).isLessThan(12); // the commit, the shard path, one entry, meta
    assertThat(one.bytes()).isLessThan(full.bytes() / 50);
    assertThat(Replication.replicate(a(), b()).blocks()).isZero();
    assertThat(fingerprint(b())).isEqualTo(fingerprint(a()));
  }

  @Test
  void aTargetWithOtherCommits_isRefused() {
    write(a(), 0, 3);
    write(b(), 0, 1);
    assertThatThrownBy(() -> Replication.replicate(a(), b())).isInstanceOf(KvException.class)
        .hasMessageContaining("not a replica");
  }

  @Test
  void aDamagedSource_isRefusedNamingTheBlock_andTheTargetKeepsItsLastWholeCommit()
      throws Exception {
    write(a(), 0, 3);
    Replication.replicate(a(), b());
    List<Cid> good = commits(b());
    try (Kv kv = Kv.open("dag:" + a())) {
      kv.set(KvKey.of("k", 99), "a value long enough to find in the file");
    }
    Path file = a().resolve(BlockLog.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf("long enough")] ^= 1;
    Files.write(file, bytes);
    assertThatThrownBy(() -> Replication.replicate(a(), b()))
        .isInstanceOf(CorruptBlockException.class).hasMessageContaining("bafy");
    assertThat(commits(b())).isEqualTo(good);
    try (Kv replica = Kv.open("dag:" + b())) {
      assertThat(replica.get(KvKey.of("k", 2)).value(String.class)).isEqualTo("value 2");
    }
  }

  /**
   * A replication given up before its last block ({@code kvasir replicate} on SIGTERM) keeps
   * the commits that arrived whole, and the next one goes on from them; one given up before any
   * commit arrived leaves no database, and a CAR's writing stops too.
   */
  @Test
  void aReplicationGivenUp_keepsTheWholeCommits_andTheNextGoesOn() throws Exception {
    write(a(), 0, 5);
    List<Cid> source = commits(a());
    int[] asked = {0};
    Replication.replicate(a(), dir.resolve("counted"), () -> {
      asked[0]++;
      return false;
    });
    int all = asked[0];

    int[] now = {0};
    assertThatThrownBy(() -> Replication.replicate(a(), b(), () -> ++now[0] >= all))
        .isInstanceOf(CancellationException.class);
    assertThat(commits(b())).isEqualTo(source.subList(0, source.size() - 1));
    Replication.Result rest = Replication.replicate(a(), b(), () -> false);
    assertThat(rest.commits()).isEqualTo(1);
    assertThat(fingerprint(b())).isEqualTo(fingerprint(a()));

    Path none = dir.resolve("none");
    assertThatThrownBy(() -> Replication.replicate(a(), none, () -> true))
        .isInstanceOf(CancellationException.class);
    assertThat(none).doesNotExist();

    ByteArrayOutputStream car = new ByteArrayOutputStream();
    Replication.toCar(a(), car);
    int[] writes = {0};
    assertThatThrownBy(() -> Replication.toCar(a(), new ByteArrayOutputStream(),
        () -> ++writes[0] > 3)).isInstanceOf(CancellationException.class);
    assertThatThrownBy(() -> Replication.fromCar(new ByteArrayInputStream(car.toByteArray()),
        none, () -> true)).isInstanceOf(CancellationException.class);
    assertThat(none).doesNotExist();
  }

  @Test
  void aCar_carriesTheWholeHistory_andACutOrDamagedOneIsRefused() throws Exception {
    write(a(), 0, 500);
    write(a(), 500, 510);
    ByteArrayOutputStream car = new ByteArrayOutputStream();
    Replication.toCar(a(), car);
    Replication.fromCar(new ByteArrayInputStream(car.toByteArray()), b());
    assertThat(commits(b())).isEqualTo(commits(a()));
    assertThat(fingerprint(b())).isEqualTo(fingerprint(a()));

    byte[] cut = Arrays.copyOf(car.toByteArray(), car.size() - 100);
    Path c = dir.resolve("c");
    assertThatThrownBy(() -> Replication.fromCar(new ByteArrayInputStream(cut), c))
        .isInstanceOf(MissingBlockException.class).hasMessageContaining("bafy")
        .hasMessageContaining("cut short");
    // No commit arrived whole, so the directory it made is gone: it was left behind empty.
    assertThat(c).doesNotExist();

    byte[] damaged = car.toByteArray();
    damaged[new String(damaged, StandardCharsets.ISO_8859_1).indexOf("value 3")] ^= 1;
    Files.createDirectory(c); // made by the user: it stays, empty as it was
    assertThatThrownBy(() -> Replication.fromCar(new ByteArrayInputStream(damaged), c))
        .isInstanceOf(CorruptBlockException.class).hasMessageContaining("bafy");
    assertThat(c).isEmptyDirectory();
  }

  @Test
  void aReadOnlyReplica_followsReplication_andWakesWatchers() throws Exception {
    write(a(), 0, 3);
    Replication.replicate(a(), b());
    try (Kv replica = Kv.of(DagEngine.openReadOnly(b()));
        WatchStream watch = replica.watch(List.of(KvKey.of("k", 7)))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
      write(a(), 3, 8);
      Replication.replicate(a(), b());
      assertThat(next.get(10, TimeUnit.SECONDS).get(0).value(String.class))
          .isEqualTo("value 7");
      assertThat(replica.get(KvKey.of("k", 5)).value(String.class)).isEqualTo("value 5");
      assertThatThrownBy(() -> replica.set(KvKey.of("x"), 1)).isInstanceOf(KvException.class)
          .hasMessageContaining("reading only");
    }
  }

  @Test
  void aSecondWriter_isRefused_whileReadersAreWelcome() {
    write(a(), 0, 1);
    try (DagEngine writer = DagEngine.open(a())) {
      assertThatThrownBy(() -> DagEngine.open(a())).isInstanceOf(KvException.class)
          .hasMessageContaining("open for writing elsewhere");
      try (DagEngine reader = DagEngine.openReadOnly(a())) {
        assertThat(reader.headCid()).isEqualTo(writer.headCid());
      }
    }
  }
}
