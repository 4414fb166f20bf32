package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.testkit.DiskFiller;
import dev.kvasir.testkit.SmallTmpfs;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.Expiry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.ValueEncoding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code dag:} database on a real full file system: a 2 MiB tmpfs mounted for the test (which needs
 * root; without it the test is skipped and says why). A commit that meets the full disk fails
 * as unavailable and leaves nothing behind (docs/dag-engine.md §2); once space is freed the
 * same engine commits again, and the log opens with every acknowledged entry.
 */
class DagDiskFullIT {
  @TempDir Path dir;
  private SmallTmpfs tmpfs;

  @BeforeEach
  void mountTmpfs() throws Exception {
    tmpfs = SmallTmpfs.mount(dir.resolve("small"), "2m");
  }

  @AfterEach
  void unmount() throws Exception {
    if (tmpfs != null) {
      tmpfs.close();
    }
  }

  @Test
  void commitsOnAFullDisk_failAsUnavailable_andSucceedOnceSpaceIsFreed() throws Exception {
    Path db = tmpfs.path().resolve("db");
    Path filler = tmpfs.path().resolve("filler");
    int acknowledged;
    try (Kv kv = Kv.open("dag:" + db)) {
      Files.write(filler, new byte[1200 * 1024]);
      DiskFiller.Filled filled = DiskFiller.fill(kv);
      acknowledged = filled.acknowledged();
      KvUnavailableException full = filled.failure();
      assertThat(full).as("the disk filled up").isNotNull();
      assertThat(full.maybeApplied()).isFalse();
      assertThat(full.getMessage()).contains("No space left on device")
          .contains("the commit was not applied");
      assertThat(DiskFiller.entries(kv)).as("no partial commit").isEqualTo(acknowledged);
      assertThatThrownBy(() -> kv.set(KvKey.of("big", "again"),
          new byte[DiskFiller.VALUE_BYTES])).isInstanceOf(KvUnavailableException.class);

      Files.delete(filler);
      kv.set(KvKey.of("after"), "written once space was freed");
      assertThat(DiskFiller.entries(kv)).isEqualTo(acknowledged);
    }
    try (Kv kv = Kv.open("dag:" + db)) {
      assertThat(DiskFiller.entries(kv)).as("every acknowledged entry, after reopening")
          .isEqualTo(acknowledged);
      assertThat(kv.get(KvKey.of("after")).value()).isEqualTo("written once space was freed");
    }
  }

  /**
   * A load larger than the disk, whose blocks go to the file before its commit (docs/dag-engine.md
   * §2): it fails as unavailable once the disk is full, the file is cut back to the last commit,
   * and the engine commits again at once.
   */
  @Test
  void aLoadThatSpillsOntoAFullDisk_failsAsUnavailable_andLeavesTheLastCommit() throws Exception {
    try (SmallTmpfs larger = SmallTmpfs.mount(dir.resolve("larger"), "16m")) {
      Path db = larger.path().resolve("db");
      DagEngine engine = DagEngine.open(db);
      try (Kv kv = Kv.of(engine)) {
        kv.set(KvKey.of("before"), "kept");
        long size = Files.size(db.resolve(BlockLog.FILE_NAME));
        Random random = new Random(7);
        List<StoredEntry> entries = new ArrayList<>();
        for (int i = 0; i < 400; i++) { // 24 MiB of values
          byte[] value = new byte[60 << 10];
          random.nextBytes(value);
          entries.add(new StoredEntry(RawKey.wrap(KvKey.of("big", i).encode()),
              EncodedValue.of(ValueEncoding.BYTES, value), Versionstamp.ofVersion(100 + i),
              Expiry.NEVER));
        }
        assertThatThrownBy(() -> engine.load(entries))
            .isInstanceOfSatisfying(KvUnavailableException.class,
                e -> assertThat(e.maybeApplied()).isFalse())
            .hasMessageContaining("No space left on device");
        assertThat(Files.size(db.resolve(BlockLog.FILE_NAME))).isEqualTo(size);
        kv.set(KvKey.of("after"), "written");
      }
      try (Kv kv = Kv.open("dag:" + db)) {
        assertThat(DiskFiller.entries(kv)).isZero();
        assertThat(kv.get(KvKey.of("before")).value()).isEqualTo("kept");
        assertThat(kv.get(KvKey.of("after")).value()).isEqualTo("written");
      }
    }
  }
}
