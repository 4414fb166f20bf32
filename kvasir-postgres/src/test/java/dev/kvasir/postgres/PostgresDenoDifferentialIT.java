package dev.kvasir.postgres;

import dev.kvasir.Kv;
import dev.kvasir.testkit.DenoDifferential;
import java.nio.file.Path;
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
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("deno_diff");
    try (Kv kv = Kv.open(url)) {
      DenoDifferential.assertAgree(kv, dir, seed, 300);
    }
  }
}
