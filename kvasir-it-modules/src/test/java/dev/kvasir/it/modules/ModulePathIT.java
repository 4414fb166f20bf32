package dev.kvasir.it.modules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.server.KvServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link OpenEverything} as a named module in a JVM of its own, with only
 * {@code --module-path} and {@code --module} (no {@code --add-modules}, no class path), against
 * a SQLite file, a real PostgreSQL server and a KV Connect server: the engines must be found
 * as services of named modules.
 */
class ModulePathIT {
  private static final String TOKEN = "module-path-test-token";

  @TempDir Path dir;

  @Test
  void anApplicationRequiringOnlyTheCore_opensSqlitePostgresRemoteAndDagDatabases()
      throws Exception {
    String sqlite = dir.resolve("app.sqlite3").toString();
    String dag = "dag:" + dir.resolve("app.dag");
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(TOKEN).port(0)
            .start()) {
      String pg = "postgresql://postgres@localhost:" + postgres.getPort() + "/postgres";
      String remote = server.url();

      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "--module-path", modulePath(),
          "--module", "dev.kvasir.it.modules/dev.kvasir.it.modules.OpenEverything",
          "--token", TOKEN, sqlite, pg, remote, dag));
      Process app = new ProcessBuilder(command).redirectErrorStream(true).start();
      assertThat(app.waitFor(120, TimeUnit.SECONDS)).as("the application finished").isTrue();
      String out = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

      assertThat(app.exitValue()).as(out).isZero();
      assertThat(out).contains("ok " + sqlite, "ok " + pg, "ok " + remote, "ok " + dag);
      assertThat(out).containsPattern("modules .*dev\\.kvasir\\.connect.*dev\\.kvasir\\.core"
          + ".*dev\\.kvasir\\.dag\\.engine"
          + ".*dev\\.kvasir\\.it\\.modules.*dev\\.kvasir\\.postgres.*dev\\.kvasir\\.sqlite");
    }
  }

  /** The application's classes, then its runtime dependencies as Maven resolved them. */
  private static String modulePath() throws Exception {
    String dependencies = Files.readString(Path.of(System.getProperty("kvasir.modulePath")))
        .strip();
    return System.getProperty("kvasir.appModule") + File.pathSeparator + dependencies;
  }
}
