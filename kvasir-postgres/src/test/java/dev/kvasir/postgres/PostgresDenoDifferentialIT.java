package dev.kvasir.postgres;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.kvasir.Kv;
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
 * The real Deno (on a SQLite file) and the PostgreSQL engine run the same random commits and
 * lists ({@link DenoDifferential}): they end alike, list alike and leave the same rows, byte
 * for byte.
 */
class PostgresDenoDifferentialIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void denoAndKvasir_agreeOnEveryCommitAndList_andStoreTheSameRows(long seed) throws Exception {
    try (Kv kv = Kv.open(freshDatabase())) {
      DenoDifferential.assertAgree(kv, dir, seed, 300);
    }
  }

  /**
   * A long run, opt-in ({@link DenoDifferential#moreSeeds}), each seed in a schema of its own
   * with twice the operations. None without it.
   */
  @TestFactory
  Stream<DynamicTest> moreSeeds_onThePostgresEngine() {
    return DenoDifferential.moreSeeds().mapToObj(seed -> dynamicTest("seed " + seed, () -> {
      Path own = Files.createDirectory(dir.resolve("seed-" + seed));
      try (Kv kv = Kv.open(freshDatabase())) {
        DenoDifferential.assertAgree(kv, own, seed, 600);
      }
    }));
  }

  private static String freshDatabase() {
    return TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("deno_diff");
  }
}
