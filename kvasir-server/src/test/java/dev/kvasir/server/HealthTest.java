package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.memory.MemoryEngine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The probes: no token, 200 while serving and ready, 503 once the database fails reads. */
class HealthTest {
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
}
