package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.value.KvU64;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kvasir's client against servers that offer only protocol version 1 or 2 (as older denokv
 * and Deno Deploy did): it negotiates that version, sends that version's headers to that
 * version's endpoint form, and everything but watch (version 3 only) works.
 */
class ProtocolVersionsTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void clientSpeaksTheOlderVersion(int version) {
    KvEngine engine = MemoryEngine.open();
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .protocolVersions(version).start();
        RemoteEngine remote = RemoteEngine.open(RemoteConfig.from(server.url(),
            KvOptions.defaults().with("accessToken", Served.TOKEN)))) {
      assertThat(remote.metadata().version()).isEqualTo(version);
      // Version 1 announces an absolute endpoint URL, later versions a relative one.
      assertThat(remote.metadata().strongEndpoint().url()).isEqualTo(server.url() + "/v2");
      Kv kv = Kv.of(remote);
      var first = kv.set(KvKey.of("v", "a"), "one");
      kv.set(KvKey.of("v", "b"), KvU64.of(1));
      assertThat(kv.atomic().check(KvKey.of("v", "a"), first.versionstamp())
          .sum(KvKey.of("v", "b"), KvU64.of(2)).commit().ok()).isTrue();
      assertThat(kv.atomic().check(KvKey.of("v", "a"), null).set(KvKey.of("v", "c"), 0)
          .commit().ok()).isFalse();
      List<KvEntry> listed = kv.list(ListSelector.prefix(KvKey.of("v"))).stream().toList();
      assertThat(listed).extracting(KvEntry::value).containsExactly("one", KvU64.of(3));
      assertThat(Kv.of(engine).get(KvKey.of("v", "b")).value()).isEqualTo(KvU64.of(3));
      assertThatThrownBy(() -> kv.watch(List.of(KvKey.of("v", "a"))))
          .isInstanceOf(KvException.class)
          .hasMessageContaining("watch needs KV Connect protocol version 3");
    } finally {
      engine.close();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void noCommonVersion_is400_namingTheServersVersions(int version) throws Exception {
    KvEngine engine = MemoryEngine.open();
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .protocolVersions(3).start()) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create(server.url() + "/")).header("authorization", "Bearer " + Served.TOKEN)
          .POST(HttpRequest.BodyPublishers.ofString("{\"supportedVersions\":[" + version
              + "]}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).isEqualTo("The server could not negotiate a protocol version."
          + " The server supports protocol versions 3.");
    } finally {
      engine.close();
    }
  }
}
