package dev.kvasir.server;

import dev.kvasir.Kv;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.testkit.DenoDifferential;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Deno (on a SQLite file) and Kvasir's KV Connect client, through {@code KvServer} on
 * a SQLite file, run the same random commits and lists ({@link DenoDifferential}): they end
 * alike, error messages included, list alike, cursors included, and leave the same rows, byte
 * for byte.
 */
class RemoteDenoDifferentialIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void denoAndKvasirsClient_agreeOnEveryCommitAndList_andStoreTheSameRows(long seed)
      throws Exception {
    try (Served served = new Served(SqliteEngine.open(SqliteConfig.of(
        dir.resolve("kvasir.sqlite3").toString())))) {
      // Served closes the client, the server and the engine, in that order.
      DenoDifferential.assertAgree(Kv.of(served.remote), Kv.of(served.backing), dir, seed, 300);
    }
  }
}
