package dev.kvasir.sqlite;

import dev.kvasir.Kv;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.testkit.DenoDifferential;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Deno and the SQLite engine, and the memory engine, run the same random commits,
 * reads and lists ({@link DenoDifferential}).
 */
class DenoDifferentialIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void denoAndKvasir_agreeOnEveryCommitAndList_andStoreTheSameRows(long seed) throws Exception {
    try (Kv kv = Kv.open(dir.resolve("kvasir.sqlite3").toString())) {
      DenoDifferential.assertAgree(kv, dir, seed, 300);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {4, 5})
  void denoAndTheMemoryEngine_agree(long seed) throws Exception {
    try (Kv kv = Kv.of(MemoryEngine.open())) {
      DenoDifferential.assertAgree(kv, dir, seed, 300);
    }
  }
}
