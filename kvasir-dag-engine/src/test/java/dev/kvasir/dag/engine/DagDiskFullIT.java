package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.testkit.SmallTmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
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
  private static final int VALUE_BYTES = 60_000;

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
    Random random = new Random(7);
    int acknowledged = 0;
    try (Kv kv = Kv.open("dag:" + db)) {
      Files.write(filler, new byte[1200 * 1024]);
      KvUnavailableException full = null;
      for (int i = 0; i < 100 && full == null; i++) {
        byte[] value = new byte[VALUE_BYTES];
        random.nextBytes(value);
        try {
          kv.set(KvKey.of("big", i), value);
          acknowledged++;
        } catch (KvUnavailableException e) {
          full = e;
        }
      }
      assertThat(full).as("the disk filled up").isNotNull();
      assertThat(full.maybeApplied()).isFalse();
      assertThat(full.getMessage()).contains("No space left on device")
          .contains("the commit was not applied");
      assertThat(count(kv)).as("no partial commit").isEqualTo(acknowledged);
      assertThatThrownBy(() -> kv.set(KvKey.of("big", "again"), new byte[VALUE_BYTES]))
          .isInstanceOf(KvUnavailableException.class);

      Files.delete(filler);
      kv.set(KvKey.of("after"), "written once space was freed");
      assertThat(count(kv)).isEqualTo(acknowledged);
    }
    try (Kv kv = Kv.open("dag:" + db)) {
      assertThat(count(kv)).as("every acknowledged entry, after reopening").isEqualTo(acknowledged);
      assertThat(kv.get(KvKey.of("after")).value()).isEqualTo("written once space was freed");
    }
  }

  private static int count(Kv kv) {
    int n = 0;
    for (var ignored : kv.list(ListSelector.prefix(KvKey.of("big")))) {
      n++;
    }
    return n;
  }
}
