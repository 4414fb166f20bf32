package dev.kvasir.sqlite;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.kvasir.Kv;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.testkit.DenoDifferential;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
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

  /**
   * A long run, opt-in ({@link DenoDifferential#moreSeeds}), with twice the operations (about a
   * second each), on the SQLite engine and on the memory engine. None without it.
   */
  @TestFactory
  Stream<DynamicTest> moreSeeds_onTheSqliteAndMemoryEngines() {
    return DenoDifferential.moreSeeds().boxed().flatMap(seed -> Stream.of(
        dynamicTest("seed " + seed + ", SQLite", () -> {
          Path own = Files.createDirectory(dir.resolve("sqlite-" + seed));
          try (Kv kv = Kv.open(own.resolve("kvasir.sqlite3").toString())) {
            DenoDifferential.assertAgree(kv, own, seed, 600);
          }
        }),
        dynamicTest("seed " + seed + ", memory", () -> {
          Path own = Files.createDirectory(dir.resolve("memory-" + seed));
          try (Kv kv = Kv.of(MemoryEngine.open())) {
            DenoDifferential.assertAgree(kv, own, seed, 600);
          }
        })));
  }
}
