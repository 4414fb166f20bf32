package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.golden.ValueDescriptions;
import dev.kvasir.golden.Vectors.ValueVector;
import dev.kvasir.golden.Vectors;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.testkit.DeepValues;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.testkit.DenoWrites;
import dev.kvasir.value.KvU64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Deno ({@code Deno.openKv("http://…")}) against {@code KvServer} on a SQLite file:
 * every remote operation, and every value vector both ways (Deno writes remotely and Kvasir
 * reads; Kvasir writes through its own client and Deno reads).
 */
class DenoRemoteIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private DenoPeer deno;
  private Served served;

  @BeforeEach
  void start() {
    deno = DenoPeer.require(dir.resolve("deno")).env("DENO_KV_ACCESS_TOKEN", Served.TOKEN);
    served = new Served(SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3").toString())));
  }

  @AfterEach
  void stop() {
    if (served != null) {
      served.close();
    }
  }

  @Test
  void everyRemoteOperationOfDeno_works() throws Exception {
    assertThat(deno.run("remote.ts", served.server.url())).isEqualTo("ok");
  }

  @Test
  void denoWritesRemotely_kvasirReadsEveryValue() throws Exception {
    JsonNode stamps = JSON.readTree(deno.run("write_all.ts", served.server.url(),
        deno.vectorsDir().toString()));
    Kv kv = Kv.of(served.remote);
    DenoWrites.assertEveryValueVector(kv, stamps);
    assertThat(kv.get(KvKey.of("u64")).value()).isEqualTo(KvU64.MAX);
  }

  @Test
  void valuesNestedAsDeeplyAsDenoWritesThem_travelThroughTheServerBothWays() throws Exception {
    try (Kv kv = Kv.open(served.server.url(), KvOptions.defaults().with("accessToken",
        Served.TOKEN))) {
      DeepValues.write(kv);
    }
    assertThat(deno.run("deep.ts", "verify", served.server.url())).isEqualTo("ok");
    // The server parses every V8 value it stores; at 512 levels it refused these with 400.
    assertThat(deno.run("deep.ts", "write", served.server.url())).isEqualTo("ok");
    DeepValues.assertRead(Kv.of(served.remote));
  }

  @Test
  void kvasirWritesThroughItsClient_denoReadsEveryValue() throws Exception {
    ObjectNode stamps = JSON.createObjectNode();
    try (Kv kv = Kv.open(served.server.url(), KvOptions.defaults().with("accessToken",
        Served.TOKEN))) {
      for (ValueVector v : Vectors.values()) {
        stamps.put("v" + v.id(), kv.set(KvKey.of("v", v.id()),
            ValueDescriptions.build(v.description())).versionstamp().toString());
      }
      for (var k : Vectors.keys()) {
        if (k.encoded().length > 0 && !k.source().has("same_encoding_as_id")) {
          stamps.put("k" + k.id(), kv.set(KvKey.decode(k.encoded()), k.id()).versionstamp()
              .toString());
        }
      }
      stamps.put("u64", kv.set(KvKey.of("u64"), KvU64.MAX).versionstamp().toString());
      stamps.put("expiring", kv.set(KvKey.of("expiring"), "soon", Duration.ofHours(1))
          .versionstamp().toString());
      stamps.put("log", kv.atomic().setVersionstamped(KvKey.of("log"), "entry").commit()
          .versionstamp().toString());
    }
    Path expected = dir.resolve("expected.json");
    Files.writeString(expected, stamps.toString());
    assertThat(deno.run("verify_all.ts", served.server.url(), deno.vectorsDir().toString(),
        expected.toString())).isEqualTo("ok");
  }
}
