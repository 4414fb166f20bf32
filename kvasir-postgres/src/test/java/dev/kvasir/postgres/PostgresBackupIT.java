package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.dag.engine.Backup;
import dev.kvasir.dag.engine.PointInTime;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup that reads through one PostgreSQL instance follows the commits of another, and each
 * copy restores exactly into a new schema (docs/backup.md §2, §3).
 */
class PostgresBackupIT {
  @TempDir Path dir;

  private static List<StoredEntry> dump(Kv kv) {
    List<StoredEntry> out = new ArrayList<>();
    kv.engine().dump(out::add);
    return out;
  }

  @Test
  void aBackupThroughOneInstance_followsAnother_andRestoresIntoANewSchema() {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("backup");
    List<List<StoredEntry>> states = new ArrayList<>();
    List<String> commits = new ArrayList<>();
    try (Kv writer = Kv.open(url); Kv reader = Kv.open(url);
        Backup backup = Backup.open(dir.resolve("bk"))) {
      for (int round = 0; round < 5; round++) {
        writer.set(KvKey.of("n", round), "round " + round);
        writer.set(KvKey.of("expiring", round), round, Duration.ofHours(1));
        if (round > 0) {
          writer.delete(KvKey.of("n", round - 1));
        }
        Backup.Snapshot copy = backup.takeIfChanged(reader.engine()).orElseThrow();
        commits.add(copy.commit().toString());
        states.add(dump(writer));
        assertThat(backup.takeIfChanged(reader.engine())).isEmpty();
      }
    }
    for (int round = 0; round < states.size(); round++) {
      String target = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("restored");
      try (Kv restored = Kv.open(target)) {
        PointInTime.restore(dir.resolve("bk"), commits.get(round), restored.engine());
        assertThat(dump(restored)).as("round %d", round).isEqualTo(states.get(round));
      }
    }
  }
}
