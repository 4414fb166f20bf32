package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.testkit.NpmPeer;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.JsValues;
import dev.kvasir.value.KvU64;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code @deno/kv} Node client (npm, 0.14.0) against {@code KvServer}; the build installs
 * it ({@link NpmPeer}).
 */
class NodeClientIT {
  static final String VERSION = "0.14.0";

  @TempDir Path dir;

  private static Path client() {
    return NpmPeer.require("@deno/kv", VERSION, List.of("node_modules/@deno/kv/esm/npm.js"),
        false);
  }

  @Test
  void nodeClient_smokeSet_againstKvServer() throws Exception {
    Path entry = client();
    Path script = dir.resolve("remote.mjs");
    try (InputStream in = NodeClientIT.class.getResourceAsStream("/node/remote.mjs")) {
      Files.copy(in, script);
    }
    try (Served served = new Served(
        SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3").toString())))) {
      Kv kv = Kv.of(served.remote);
      kv.set(KvKey.of("from", "java", "u64"), KvU64.of(7));
      kv.set(KvKey.of("from", "java", "bytes"), new byte[] {9, 8});
      Map<String, Object> object = new LinkedHashMap<>();
      object.put("text", "hé ✓");
      object.put("when", Instant.ofEpochMilli(1_700_000_000_000L));
      object.put("map", new JsMap().put("k", Arrays.asList(true, null)));
      object.put("bytes", new byte[] {1, 2, 3});
      kv.set(KvKey.of("from", "java", "object"), object);
      ProcessBuilder pb = new ProcessBuilder("node", script.toString(), entry.toString(),
          served.server.url()).redirectErrorStream(true);
      pb.environment().put("DENO_KV_ACCESS_TOKEN", Served.TOKEN);
      Process node = pb.start();
      assertThat(node.waitFor(120, TimeUnit.SECONDS)).isTrue();
      String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(node.exitValue()).as(out).isZero();
      assertThat(out.strip()).isEqualTo("ok");
      Map<String, Object> expected = new LinkedHashMap<>();
      expected.put("text", "hé ✓");
      expected.put("n", 1.5);
      expected.put("big", new BigInteger("12345678901234567890"));
      expected.put("when", Instant.ofEpochMilli(1_700_000_000_000L));
      expected.put("map", new JsMap().put("k", Arrays.asList(true, null)));
      expected.put("set", new JsSet().add(1.0).add("a"));
      Object fromNode = kv.get(KvKey.of("from", "node")).value();
      assertThat(JsValues.deepEquals(fromNode, expected)).as("%s", fromNode).isTrue();
      assertThat(kv.get(KvKey.of("node", "bytes")).value()).isEqualTo(new byte[] {1, 2, 3});
    }
  }
}
