package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directory of an open database deleted (docs/dag-engine.md §2): commits, which would go
 * into the deleted block file and vanish with it, are refused, and the engine says why.
 */
class DeletedLogTest {
  @TempDir Path dir;

  @Test
  void commitsIntoADeletedLog_areRefused_andReportedAsTheStorageProblem() throws Exception {
    Path db = dir.resolve("db");
    DagEngine engine = DagEngine.open(db);
    try (Kv kv = Kv.of(engine)) {
      kv.set(KvKey.of("k"), "before");
      assertThat(engine.storageProblem()).isEmpty();

      try (Stream<Path> files = Files.walk(db)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }

      assertThatThrownBy(() -> kv.set(KvKey.of("k"), "after"))
          .isInstanceOfSatisfying(KvUnavailableException.class,
              e -> assertThat(e.maybeApplied()).isFalse())
          .hasMessageContaining(db.resolve(BlockLog.FILE_NAME)
              + " was deleted or moved away while open; commits are refused");
      assertThat(engine.storageProblem()).hasValueSatisfying(
          why -> assertThat(why).contains("was deleted or moved away while open"));
    }
  }
}
