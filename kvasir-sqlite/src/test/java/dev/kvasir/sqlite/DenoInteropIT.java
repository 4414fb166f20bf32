package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.golden.ValueDescriptions;
import dev.kvasir.golden.Vectors.KeyVector;
import dev.kvasir.golden.Vectors.ValueVector;
import dev.kvasir.golden.Vectors;
import dev.kvasir.key.KeyPart;
import dev.kvasir.testkit.DeepValues;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.testkit.DenoWrites;
import dev.kvasir.value.KvU64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Deno and Kvasir on the same SQLite files: each reads what the other wrote (every
 * value and key vector, KvU64, expiring and versionstamped keys), they take turns writing, and
 * they write at the same time.
 */
class DenoInteropIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private DenoPeer deno;

  @BeforeEach
  void findDeno() {
    deno = DenoPeer.require(dir.resolve("deno"));
  }

  /** Key vectors that do not collide with an earlier one (lone surrogates, NaN variants). */
  private static List<KeyVector> distinctKeys() {
    return Vectors.keys().stream()
        .filter(k -> k.encoded().length > 0 && !k.source().has("same_encoding_as_id")).toList();
  }

  @Test
  void denoWrites_kvasirReadsEveryValueKeyAndVersionstamp() throws Exception {
    String file = dir.resolve("deno.sqlite3").toString();
    JsonNode stamps = JSON.readTree(deno.run("write_all.ts", file, deno.vectorsDir().toString()));
    try (Kv kv = Kv.open(file)) {
      DenoWrites.assertEveryValueVector(kv, stamps);
      // Colliding keys were written in order: the last writer's id is what is stored.
      Map<String, KeyVector> lastWriter = new LinkedHashMap<>();
      Vectors.keys().stream().filter(k -> k.encoded().length > 0)
          .forEach(k -> lastWriter.put(k.encodedHex(), k));
      for (KeyVector k : lastWriter.values()) {
        KvEntry e = kv.get(KvKey.decode(k.encoded()));
        assertThat(e.value()).as("key %s", k.id()).isEqualTo((double) k.id());
        assertThat(e.versionstamp()).isEqualTo(Versionstamp.parse(stamps.get("k" + k.id()).asText()));
      }
      assertThat(kv.get(KvKey.of("u64")).value()).isEqualTo(KvU64.MAX);
      assertThat(kv.get(KvKey.of("expiring")).value()).isEqualTo("soon");
      List<KvEntry> log = new ArrayList<>();
      kv.list(ListSelector.prefix(KvKey.of("log"))).forEach(log::add);
      assertThat(log).singleElement().satisfies(e -> {
        assertThat(e.key()).isEqualTo(KvKey.of("log", stamps.get("log").asText()));
        assertThat(e.versionstamp().toString()).isEqualTo(stamps.get("log").asText());
      });
    }
  }

  @Test
  void kvasirWrites_denoReadsEveryValueKeyAndVersionstamp() throws Exception {
    Path file = dir.resolve("kvasir.sqlite3");
    ObjectNode stamps = JSON.createObjectNode();
    try (Kv kv = Kv.open(file.toString())) {
      for (ValueVector v : Vectors.values()) {
        stamps.put("v" + v.id(), kv.set(KvKey.of("v", v.id()),
            ValueDescriptions.build(v.description())).versionstamp().toString());
      }
      for (KeyVector k : distinctKeys()) {
        stamps.put("k" + k.id(), kv.set(KvKey.decode(k.encoded()), k.id()).versionstamp()
            .toString());
      }
      stamps.put("u64", kv.set(KvKey.of("u64"), KvU64.MAX).versionstamp().toString());
      stamps.put("expiring",
          kv.set(KvKey.of("expiring"), "soon", Duration.ofHours(1)).versionstamp().toString());
      stamps.put("log", kv.atomic().setVersionstamped(KvKey.of("log"), "entry").commit()
          .versionstamp().toString());
    }
    Path expected = dir.resolve("expected.json");
    Files.writeString(expected, stamps.toString());
    assertThat(deno.run("verify_all.ts", file.toString(), deno.vectorsDir().toString(),
        expected.toString())).isEqualTo("ok");
  }

  @Test
  void valuesNestedAsDeeplyAsDenoWritesThem_travelBothWays() throws Exception {
    String fromDeno = dir.resolve("deep-deno.sqlite3").toString();
    assertThat(deno.run("deep.ts", "write", fromDeno)).isEqualTo("ok");
    try (Kv kv = Kv.open(fromDeno)) {
      DeepValues.assertRead(kv);
    }
    String fromKvasir = dir.resolve("deep-kvasir.sqlite3").toString();
    try (Kv kv = Kv.open(fromKvasir)) {
      DeepValues.write(kv);
    }
    assertThat(deno.run("deep.ts", "verify", fromKvasir)).isEqualTo("ok");
  }

  @Test
  void arraysOfNumbers_storeTheBytesDenoStores() throws Exception {
    // Each JavaScript literal beside the Java value a user would write for it. V8 holds an
    // array of numbers only, one of them not a small integer, as doubles, and writes every
    // element N (docs/values.md §3.2); Kvasir wrote 2 in [1.5, 2] as I.
    Object[][] cases = {
        {"[1.5, 2]", List.of(1.5, 2)},
        {"[1.5, 2]", new double[] {1.5, 2}},
        {"[2, 1.5]", List.of(2L, 1.5)},
        {"[1, 2]", List.of(1, 2)},
        {"[1, 'x', 1.5, 2]", List.of(1, "x", 1.5, 2)},
        {"[2 ** 31, 1]", List.of(0x1p31, 1)},
        {"[-(2 ** 31) - 1, 0]", List.of(-0x1p31 - 1, 0)},
        {"[2 ** 31 - 1, -(2 ** 31)]", List.of(Integer.MAX_VALUE, Integer.MIN_VALUE)},
        {"[-0, 1]", List.of(-0.0, 1)},
        {"[NaN, 1]", List.of(Double.NaN, 1)},
        {"[1e300, 7]", List.of(1e300, 7)},
        {"[[1.5, 2], {x: [3, 0.5]}, [4, 5]]",
            List.of(List.of(1.5, 2), Map.of("x", List.of(3, 0.5)), List.of(4, 5))},
        {"JSON.parse('[-0, 0, 2.5]')", List.of(-0.0, 0, 2.5)},
        {"[]", List.of()},
    };
    String fromDeno = dir.resolve("literals-deno.sqlite3").toString();
    String fromKvasir = dir.resolve("literals-kvasir.sqlite3").toString();
    List<String> args = new ArrayList<>(List.of(fromDeno));
    try (Kv kv = Kv.open(fromKvasir)) {
      for (int i = 0; i < cases.length; i++) {
        args.addAll(List.of("c" + i, (String) cases[i][0]));
        kv.set(KvKey.of("c" + i), cases[i][1]);
      }
    }
    assertThat(deno.run("set_literals.ts", args.toArray(String[]::new))).isEqualTo("ok");
    Map<String, String> denoBytes = storedHex(fromDeno);
    Map<String, String> kvasirBytes = storedHex(fromKvasir);
    assertThat(denoBytes).hasSize(cases.length);
    for (int i = 0; i < cases.length; i++) {
      assertThat(kvasirBytes.get("c" + i)).as("%s", cases[i][0])
          .isEqualTo(denoBytes.get("c" + i));
    }
  }

  /** Each row's value bytes as hex, by the key's one string part. */
  private static Map<String, String> storedHex(String file) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + file);
        var r = c.createStatement().executeQuery("select k, v from kv")) {
      while (r.next()) {
        out.put(((KeyPart.Str) KvKey.decode(r.getBytes(1)).get(0)).value(),
            HexFormat.of().formatHex(r.getBytes(2)));
      }
    }
    return out;
  }

  @Test
  void takingTurns_onOneFile_versionsStayMonotonic_andTheFileStaysIntact() throws Exception {
    String file = dir.resolve("turns.sqlite3").toString();
    List<Versionstamp> order = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      JsonNode fromDeno = JSON.readTree(deno.run("sequence.ts", file, "deno" + round, "20"));
      fromDeno.forEach(s -> order.add(Versionstamp.parse(s.asText())));
      try (Kv kv = Kv.open(file)) {
        for (int i = 0; i < 20; i++) {
          order.add(kv.set(KvKey.of("turn", "kvasir" + round, i), Map.of("i", i)).versionstamp());
        }
      }
    }
    for (int i = 1; i < order.size(); i++) {
      assertThat(order.get(i)).as("commit %d", i).isGreaterThan(order.get(i - 1));
    }
    try (Kv kv = Kv.open(file)) {
      List<KvEntry> all = new ArrayList<>();
      kv.list(ListSelector.prefix(KvKey.of("turn"))).forEach(all::add);
      assertThat(all).hasSize(120);
    }
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + file);
        var r = c.createStatement().executeQuery("pragma integrity_check")) {
      r.next();
      assertThat(r.getString(1)).isEqualTo("ok");
    }
  }

  @Test
  void writingAtTheSameTime_checkAndSetCountsAreExact() throws Exception {
    String file = dir.resolve("race.sqlite3").toString();
    int each = 2000;
    try (Kv kv = Kv.open(file)) {
      kv.set(KvKey.of("start"), true);
      Process denoWriter = deno.start("cas.ts", file, String.valueOf(each));
      CasWorker.increment(kv, KvKey.of("counter", "shared"), each);
      assertThat(DenoPeer.finish(denoWriter, "cas.ts")).endsWith("done");
      assertThat(kv.get(KvKey.of("counter", "shared")).value()).isEqualTo(KvU64.of(2L * each));
    }
  }
}
