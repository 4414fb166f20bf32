package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Behind a proxy that publishes the server under a path and strips it, the metadata answer
 * sends clients to the data endpoints under that path, as the proxy names it: believed only
 * from a trusted proxy.
 */
class ForwardedPrefixTest {
  @Test
  void theMetadataAnswer_putsTheEndpointUnderTheTrustedProxysPrefix() throws Exception {
    try (KvEngine engine = MemoryEngine.open();
        KvServer behindProxy = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .trustedProxies(List.of("127.0.0.1", "::1")).start();
        KvServer direct = KvServer.builder(engine).accessToken(Served.TOKEN).port(0).start()) {
      assertThat(endpoint(behindProxy, "/kv")).isEqualTo("/kv/v2");
      assertThat(endpoint(behindProxy, "/apps/kv/")).isEqualTo("/apps/kv/v2");
      assertThat(endpoint(behindProxy, "/outer, /inner")).as("the outermost proxy's")
          .isEqualTo("/outer/v2");
      assertThat(endpoint(behindProxy, null)).isEqualTo("/v2");
      for (String notAPath : List.of("kv", "/kv/../admin", "/kv?x=1", "//evil.example/kv",
          "/kv\"}", "https://evil.example/kv", "/")) {
        assertThat(endpoint(behindProxy, notAPath)).as(notAPath).isEqualTo("/v2");
      }
      assertThat(endpoint(direct, "/kv")).as("from a client, not a trusted proxy")
          .isEqualTo("/v2");
    }
  }

  private static String endpoint(KvServer server, String prefix) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + "/"))
        .header("authorization", "Bearer " + Served.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString("{\"supportedVersions\":[2,3]}"));
    if (prefix != null) {
      request.header(ForwardedPrefix.HEADER, prefix);
    }
    HttpResponse<String> answer = HttpClient.newHttpClient().send(request.build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new ObjectMapper().readTree(answer.body()).get("endpoints").get(0).get("url")
        .asText();
  }
}
