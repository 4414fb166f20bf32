package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages of the file damaged on disk (docs/sqlite.md §11): a read that meets them fails with
 * an error that says so and is not retryable, and the engine reports the damage as its storage
 * problem from then on, which a server's readiness probe passes on.
 */
class DamagedFileTest {
  private static final int PAGE = 4096;

  @TempDir Path dir;

  @Test
  void aReadThatMeetsDamagedPages_saysTheFileIsDamaged_andTheEngineRemembersIt()
      throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      for (int i = 0; i < 3000; i += 100) {
        AtomicOperation batch = kv.atomic();
        for (int j = i; j < i + 100; j++) {
          batch.set(KvKey.of("k", j), "x".repeat(200));
        }
        batch.commit();
      }
    }
    overwritePages(file, 20, 10); // the table's leaves, after the file was closed whole

    SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()));
    try (Kv kv = Kv.of(engine)) {
      assertThat(engine.storageProblem()).isEmpty();
      assertThatThrownBy(() -> kv.list(ListSelector.prefix(KvKey.of("k"))).forEach(e -> { }))
          .isInstanceOfSatisfying(KvException.class, e -> assertThat(e.isRetryable()).isFalse())
          .hasMessageContaining(file + " is damaged ([SQLITE_CORRUPT]")
          .hasMessageContaining("restore it from a backup");
      assertThat(engine.storageProblem()).hasValueSatisfying(
          why -> assertThat(why).startsWith(file + " is damaged"));
    }
  }

  private static void overwritePages(Path file, int first, int count) throws Exception {
    byte[] garbage = new byte[PAGE * count];
    Arrays.fill(garbage, (byte) 0xff);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      assertThat(f.length()).isGreaterThan((long) PAGE * (first + count));
      f.seek((long) PAGE * first);
      f.write(garbage);
    }
  }
}
