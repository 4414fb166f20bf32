package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probes: no token, 200 while serving and ready, 503 once the database fails reads or its
 * file is gone or damaged.
 */
class HealthTest {
  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(KvServer server, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void probes_needNoToken_andFollowTheDatabase() throws Exception {
    MemoryEngine engine = MemoryEngine.open();
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0).start()) {
      assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
      HttpResponse<String> ready = get(server, "/readyz");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).isEqualTo("ready\n");
      HttpResponse<String> post = http.send(HttpRequest.newBuilder(
          URI.create(server.url() + "/healthz")).POST(HttpRequest.BodyPublishers.noBody())
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);

      engine.close(); // every read now fails
      Thread.sleep(HealthHandler.READY_CACHE_MS + 100);
      HttpResponse<String> down = get(server, "/readyz");
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(down.body()).startsWith("not ready: the database failed a read");
      assertThat(get(server, "/healthz").statusCode()).as("the process still serves")
          .isEqualTo(200);
    }
  }

  @Test
  void aServedFileDeletedUnderTheServer_makesItNotReady_andRequestsUnavailable() throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()));
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0).start();
        RemoteEngine remote = RemoteEngine.open(RemoteConfig.from(server.url(), KvOptions
            .defaults().with("accessToken", Served.TOKEN).with("remote.maxRetries", "0")))) {
      Kv kv = Kv.of(remote);
      kv.set(KvKey.of("k"), "before");
      assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);

      Files.delete(file);
      Thread.sleep(HealthHandler.READY_CACHE_MS + 100);
      HttpResponse<String> ready = get(server, "/readyz");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body()).isEqualTo("not ready: " + file
          + " was deleted or moved away while open\n");
      assertThatThrownBy(() -> kv.set(KvKey.of("k"), "after"))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("status 503")
          .hasMessageContaining("was deleted or moved away while open");
      // SQLite fails new read transactions on the deleted file; they say why.
      assertThatThrownBy(() -> kv.get(KvKey.of("k")))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("status 503")
          .hasMessageContaining("read failed: " + file + " was deleted or moved away while open");
    } finally {
      engine.close();
    }
  }

  @Test
  void aDamagedFile_isAnswered503WithTheReason_andMakesTheServerNotReady() throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      for (int i = 0; i < 3000; i += 500) {
        AtomicOperation batch = kv.atomic();
        for (int j = i; j < i + 500; j++) {
          batch.set(KvKey.of("k", j), "x".repeat(200));
        }
        batch.commit();
      }
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(20 * 4096); // pages of the table's leaves
      f.write(new byte[10 * 4096]);
    }
    SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()));
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0).start();
        RemoteEngine remote = RemoteEngine.open(RemoteConfig.from(server.url(), KvOptions
            .defaults().with("accessToken", Served.TOKEN).with("remote.maxRetries", "0")))) {
      assertThat(get(server, "/readyz").statusCode()).as("the probe's read misses the damage")
          .isEqualTo(200);
      assertThatThrownBy(() -> Kv.of(remote).list(ListSelector.prefix(KvKey.of("k")))
          .forEach(e -> { }))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("status 503: " + file + " is damaged ([SQLITE_CORRUPT]");
      Thread.sleep(HealthHandler.READY_CACHE_MS + 100);
      HttpResponse<String> ready = get(server, "/readyz");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body()).startsWith("not ready: " + file + " is damaged");
    } finally {
      engine.close();
    }
  }
}
