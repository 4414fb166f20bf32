package dev.kvasir.server;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.kvasir.Kv;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
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
 * The real Deno on a SQLite file of its own, against clients of {@code KvServer} on a SQLite
 * file, run the same random commits, reads and lists ({@link DenoDifferential}): they end
 * alike, error messages included, list alike, cursors included, and leave the same rows, byte
 * for byte. The clients: Kvasir's KV Connect client, and Deno's own
 * ({@code Deno.openKv("http://…")}).
 */
class RemoteDenoDifferentialIT {
  @TempDir Path dir;

  /** The server, on a SQLite file; closing it closes the client, the server and the engine. */
  private Served served() {
    return served(dir);
  }

  private static Served served(Path in) {
    return new Served(SqliteEngine.open(SqliteConfig.of(in.resolve("kvasir.sqlite3").toString())));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void denoAndKvasirsClient_agreeOnEveryCommitAndList_andStoreTheSameRows(long seed)
      throws Exception {
    try (Served served = served()) {
      DenoDifferential.assertRemoteAgrees(Kv.of(served.remote), Kv.of(served.backing), dir, seed,
          300);
    }
  }

  /**
   * A long run, opt-in ({@link DenoDifferential#moreSeeds}), with each client and twice the
   * operations. None without it.
   */
  @TestFactory
  Stream<DynamicTest> moreSeeds_throughKvServer() {
    return DenoDifferential.moreSeeds().boxed().flatMap(seed -> Stream.of(
        dynamicTest("seed " + seed + ", Kvasir's client", () -> {
          Path own = Files.createDirectory(dir.resolve("kvasir-" + seed));
          try (Served served = served(own)) {
            DenoDifferential.assertRemoteAgrees(Kv.of(served.remote), Kv.of(served.backing), own,
                seed, 600);
          }
        }),
        dynamicTest("seed " + seed + ", Deno's client", () -> {
          Path own = Files.createDirectory(dir.resolve("deno-" + seed));
          try (Served served = served(own)) {
            DenoDifferential.assertServedAgrees(served.server.url(), Served.TOKEN,
                Kv.of(served.backing), own, seed, 600);
          }
        })));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void denoOnItsOwnFile_andDenoThroughKvServer_agree(long seed) throws Exception {
    try (Served served = served()) {
      DenoDifferential.assertServedAgrees(served.server.url(), Served.TOKEN,
          Kv.of(served.backing), dir, seed, 300);
    }
  }
}
