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
 * The real Deno runs the same random commits, reads and lists ({@link DenoDifferential}) on a
 * SQLite file of its own and as a client of {@code KvServer} on a SQLite file
 * ({@code Deno.openKv("http://…")}): they end alike, error messages included, list alike,
 * cursors included, and leave the same rows, byte for byte.
 */
class DenoClientDifferentialIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void denoOnItsOwnFile_andDenoThroughKvServer_agree(long seed) throws Exception {
    try (Served served = new Served(SqliteEngine.open(SqliteConfig.of(
        dir.resolve("kvasir.sqlite3").toString())))) {
      // Served closes the client, the server and the engine, in that order.
      DenoDifferential.assertServedAgrees(served.server.url(), Served.TOKEN,
          Kv.of(served.backing), dir, seed, 300);
    }
  }
}
