package dev.kvasir.dag.engine;

import dev.kvasir.Kv;
import dev.kvasir.testkit.DenoDifferential;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Deno (on a SQLite file) and the {@code dag:} engine run the same random commits,
 * reads and lists ({@link DenoDifferential}): they end alike, list alike and leave the same rows,
 * byte for byte.
 */
class DagDenoDifferentialIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void denoAndTheDagEngine_agreeOnEveryCommitAndList_andStoreTheSameRows(long seed)
      throws Exception {
    try (Kv kv = Kv.open("dag:" + dir.resolve("kvasir-dag"))) {
      DenoDifferential.assertAgree(kv, dir, seed, 300);
    }
  }
}
