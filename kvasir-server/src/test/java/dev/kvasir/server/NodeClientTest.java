package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.KvU64;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.JsValues;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code @deno/kv} Node client (npm, 0.14.0) against {@code KvServer}. {@code .ci/run}
 * installs it into {@code ~/.cache/kvasir/deno-kv-0.14.0}; like the Deno tests, this fails
 * rather than skips when {@code KVASIR_REQUIRE_DENO} is set.
 */
class NodeClientTest {
  static final String VERSION = "0.14.0";

  @TempDir Path dir;

  private static Path client() {
    Path entry = Path.of(System.getProperty("user.home"), ".cache", "kvasir", "deno-kv-" + VERSION,
        "node_modules", "@deno", "kv", "esm", "npm.js");
    if (!Files.isRegularFile(entry)) {
      String reason = "@deno/kv " + VERSION + " not found at " + entry + ": run `npm install"
          + " --prefix ~/.cache/kvasir/deno-kv-" + VERSION + " @deno/kv@" + VERSION + "`";
      if (System.getenv("KVASIR_REQUIRE_DENO") != null) {
        throw new AssertionError(reason + " (KVASIR_REQUIRE_DENO is set)");
      }
      Assumptions.abort(reason);
    }
    return entry;
  }

  @Test
  void nodeClient_smokeSet_againstKvServer() throws Exception {
    Path entry = client();
    Path script = dir.resolve("remote.mjs");
    try (InputStream in = NodeClientTest.class.getResourceAsStream("/node/remote.mjs")) {
      Files.copy(in, script);
    }
    try (Served served = new Served(
        SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3").toString())))) {
      Kv kv = Kv.of(served.remote);
      kv.set(KvKey.of("from", "java", "u64"), KvU64.of(7));
      kv.set(KvKey.of("from", "java", "bytes"), new byte[] {9, 8});
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
