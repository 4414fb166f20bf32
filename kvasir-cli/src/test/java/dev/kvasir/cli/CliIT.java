package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.golden.ValueDescriptions;
import dev.kvasir.golden.Vectors;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.server.KvServer;
import dev.kvasir.value.JsValues;
import dev.kvasir.value.KvU64;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code kvasir} commands from the shaded jar: outputs, exit codes, round trips. */
class CliIT {
  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void jar() {
    kvasir = new Jar(dir);
  }

  @Test
  void setGetDelete_withOutputsAndExitCodes() throws Exception {
    Jar.Run set = kvasir.run("set", "[\"users\", \"alice\"]", "{\"name\": \"Alice\", \"age\": 30}");
    assertThat(set.exit()).as(set.err()).isZero();
    assertThat(set.out().trim()).matches("[0-9a-f]{20}");
    assertThat(kvasir.run("get", "[\"users\", \"alice\"]").out())
        .isEqualTo("{\"name\":\"Alice\",\"age\":30}\n");
    assertThat(kvasir.run("get", "[\"users\", \"alice\"]", "--json").out())
        .isEqualTo("{\"key\":[\"users\",\"alice\"],\"value\":{\"name\":\"Alice\",\"age\":30},"
            + "\"versionstamp\":\"" + set.out().trim() + "\"}\n");
    assertThat(kvasir.run("get", "[\"users\", \"alice\"]", "--raw").out().trim())
        .startsWith("ff10"); // V8 format version 16, as Deno 2.9.6
    Jar.Run missing = kvasir.run("get", "[\"users\", \"bob\"]");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("no entry at [\"users\", \"bob\"]");
    Jar.Run missingJson = kvasir.run("get", "[\"users\", \"bob\"]", "--json");
    assertThat(missingJson.out())
        .isEqualTo("{\"key\":[\"users\",\"bob\"],\"value\":null,\"versionstamp\":null}\n");
    assertThat(missingJson.exit()).isEqualTo(1);

    Jar.Run checked = kvasir.run("set", "[\"users\", \"alice\"]", "1", "--check", "none");
    assertThat(checked.exit()).isEqualTo(1);
    assertThat(checked.err()).contains("the check failed").contains("nothing was written");
    assertThat(kvasir.run("set", "[\"users\", \"alice\"]", "\"v2\"", "--check",
        set.out().trim()).exit()).isZero();

    assertThat(kvasir.run("delete", "[\"users\", \"alice\"]").exit()).isZero();
    assertThat(kvasir.run("get", "[\"users\", \"alice\"]").exit()).isEqualTo(1);
  }

  @Test
  void badInput_isAUsageError_namingTheProblemAndTheFix() throws Exception {
    Jar.Run badKey = kvasir.run("get", "[users]");
    assertThat(badKey.exit()).isEqualTo(2);
    assertThat(badKey.err()).contains("invalid key [users] at position 2")
        .contains("Keys look like").contains("kvasir help get");
    Jar.Run badValue = kvasir.run("set", "[\"a\"]", "hello");
    assertThat(badValue.exit()).isEqualTo(2);
    assertThat(badValue.err()).contains("is not JSON").contains("--type string");
    Jar.Run badTag = kvasir.run("set", "[\"a\"]", "{\"$nope\": 1}");
    assertThat(badTag.exit()).isEqualTo(2);
    assertThat(badTag.err()).contains("unknown tag $nope").contains("$object");
    assertThat(kvasir.run("frobnicate").exit()).isEqualTo(2);
    Jar.Run noDb = kvasir.run("list", "--db", "missing.sqlite3");
    assertThat(noDb.exit()).isEqualTo(3);
    assertThat(noDb.err()).contains("there is no database at missing.sqlite3; check --db");
    assertThat(Files.exists(dir.resolve("missing.sqlite3"))).isFalse();
    Jar.Run tooBig = kvasir.run("set", "[\"big\"]", "\"" + "x".repeat(70_000) + "\"");
    assertThat(tooBig.exit()).isEqualTo(1);
    assertThat(tooBig.err()).contains("value too large");
  }

  /**
   * A value too large or too binary for an argument comes from standard input: a file's bytes,
   * a document from a pipe. The only way was an argument, base64 for bytes.
   */
  @Test
  void setWithADash_readsTheValueFromStandardInput() throws Exception {
    byte[] blob = new byte[3000];
    new Random(7).nextBytes(blob);
    blob[0] = 0;
    assertThat(kvasir.runWithInput(blob, "set", "[\"logo\"]", "-", "--type", "bytes").exit())
        .isZero();
    try (Kv kv = Kv.open(dir.resolve("kvasir.sqlite3").toString())) {
      assertThat((byte[]) kv.get(KvKey.of("logo")).value()).isEqualTo(blob);
    }
    byte[] json = "{\"a\": [1, {\"$bigint\": \"5\"}]}\n".getBytes(StandardCharsets.UTF_8);
    assertThat(kvasir.runWithInput(json, "set", "[\"cfg\"]", "-").exit()).isZero();
    assertThat(kvasir.run("get", "[\"cfg\"]").out()).isEqualTo("{\"a\":[1,{\"$bigint\":\"5\"}]}\n");
    byte[] text = "two lines,\nexactly\n".getBytes(StandardCharsets.UTF_8);
    assertThat(kvasir.runWithInput(text, "set", "[\"s\"]", "-", "--type", "string").exit())
        .isZero();
    assertThat(kvasir.run("get", "[\"s\"]").out()).isEqualTo("\"two lines,\\nexactly\\n\"\n");

    Jar.Run notText = kvasir.runWithInput(blob, "set", "[\"t\"]", "-", "--type", "string");
    assertThat(notText.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(notText.err()).contains("standard input is not UTF-8 text")
        .contains("--type bytes");

    // Input far larger than a value is refused once it is read that far, not held whole.
    Jar.Run huge = kvasir.runWithInput(new byte[(16 << 20) + 1000], "set", "[\"h\"]", "-",
        "--type", "bytes");
    assertThat(huge.exit()).isEqualTo(Kvasir.FAILED);
    assertThat(huge.err()).isEqualTo("error: value too large: standard input holds more than"
        + " 16 MiB, and a value is at most 65536 bytes\n");
  }

  @Test
  void typesFlag_u64Arithmetic_count_getMany() throws Exception {
    assertThat(kvasir.run("set", "[\"n\", 42, 7n, true, b\"AQI=\"]", "123456789012345678901",
        "--type", "bigint").exit()).isZero();
    assertThat(kvasir.run("get", "[\"n\", 42, 7n, true, b\"AQI=\"]").out())
        .isEqualTo("{\"$bigint\":\"123456789012345678901\"}\n");
    assertThat(kvasir.run("set", "[\"s\"]", "plain text", "--type", "string").exit()).isZero();
    assertThat(kvasir.run("get", "[\"s\"]").out()).isEqualTo("\"plain text\"\n");
    assertThat(kvasir.run("set", "[\"b\"]", "AQID", "--type", "bytes").exit()).isZero();
    assertThat(kvasir.run("get", "[\"b\"]").out()).isEqualTo("{\"$bytes\":\"AQID\"}\n");
    assertThat(kvasir.run("sum", "[\"visits\"]", "5").out()).isEqualTo("{\"$u64\":\"5\"}\n");
    assertThat(kvasir.run("sum", "[\"visits\"]", "18446744073709551615").out())
        .isEqualTo("{\"$u64\":\"4\"}\n"); // wraps at 2^64
    assertThat(kvasir.run("max", "[\"visits\"]", "9").out()).isEqualTo("{\"$u64\":\"9\"}\n");
    assertThat(kvasir.run("min", "[\"visits\"]", "3").out()).isEqualTo("{\"$u64\":\"3\"}\n");
    // A negative sum subtracts, as Kv.sum(key, -1) does; min and max take no negative N.
    assertThat(kvasir.run("sum", "[\"visits\"]", "-1").out()).isEqualTo("{\"$u64\":\"2\"}\n");
    Jar.Run negativeMin = kvasir.run("min", "[\"visits\"]", "-1");
    assertThat(negativeMin.exit()).isEqualTo(2);
    assertThat(negativeMin.err()).contains("N must be between 0 and 2^64-1, not -1");
    Jar.Run fraction = kvasir.run("sum", "[\"visits\"]", "1.5");
    assertThat(fraction.exit()).isEqualTo(2);
    assertThat(fraction.err()).contains("'1.5' is not a whole number")
        .doesNotContain("Exception");
    assertThat(kvasir.run("count").out()).isEqualTo("4\n");
    assertThat(kvasir.run("get-many", "[\"s\"]", "[\"none\"]").out())
        .isEqualTo("[\"s\"]     \"plain text\"\n[\"none\"]  (none)\n");
  }

  @Test
  void list_selectsPagesAndReverses() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("kvasir.sqlite3").toString())) {
      for (int i = 0; i < 5; i++) {
        kv.set(KvKey.of("item", i), i);
      }
      kv.set(KvKey.of("other"), "x");
    }
    Jar.Run page = kvasir.run("list", "--prefix", "[\"item\"]", "--limit", "2", "--json");
    assertThat(page.out().lines()).hasSize(2).allMatch(l -> l.startsWith("{\"key\":[\"item\","));
    String cursor = page.err().substring(page.err().indexOf("--cursor ") + 9).trim();
    Jar.Run next = kvasir.run("list", "--prefix", "[\"item\"]", "--cursor", cursor);
    assertThat(next.out().lines()).extracting(l -> l.substring(0, l.indexOf(']') + 1))
        .containsExactly("[\"item\", 2]", "[\"item\", 3]", "[\"item\", 4]");
    Jar.Run reversed = kvasir.run("list", "--start", "[\"item\", 1]", "--end",
        "[\"item\", 3]", "--reverse");
    assertThat(reversed.out().lines()).extracting(l -> l.substring(0, l.indexOf(']') + 1))
        .containsExactly("[\"item\", 2]", "[\"item\", 1]");
    assertThat(kvasir.run("count", "--prefix", "[\"item\"]").out()).isEqualTo("5\n");
    Jar.Run info = kvasir.run("info", "--json");
    assertThat(info.out()).contains("\"engine\":\"SQLite\"").contains("\"entries\":6")
        .contains("\"queue\":{\"ready\":0,\"delayed\":0,\"running\":0,");
    assertThat(kvasir.run("enqueue", "--delay", "1h", "\"later\"").exit()).isZero();
    assertThat(kvasir.run("info").out()).contains("queue: 0 ready, 1 delayed, 0 running\n");
  }

  @Test
  void info_printsTheFingerprint_andTheDagEngineReadsPastStates() throws Exception {
    String db = "dag:" + dir.resolve("history");
    String first = kvasir.run("set", "--db", db, "[\"k\"]", "1").out().trim();
    kvasir.run("set", "--db", db, "[\"k\"]", "2");
    Jar.Run info = kvasir.run("info", "--db", db, "--json");
    assertThat(info.out()).contains("\"engine\":\"KV/DAG\"").contains("\"entries\":1")
        .contains("\"fingerprint\":\"bafyrei");
    assertThat(kvasir.run("get", "--db", db + "?at=" + first, "[\"k\"]").out()).isEqualTo("1\n");
    assertThat(kvasir.run("get", "--db", db, "[\"k\"]").out()).isEqualTo("2\n");
  }

  @Test
  void exportThenImport_givesIdenticalEntries_forEveryKeyAndValueVector() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("kvasir.sqlite3").toString())) {
      for (Vectors.ValueVector v : Vectors.values()) {
        kv.set(KvKey.of("v", v.id()), ValueDescriptions.build(v.description()));
      }
      for (Vectors.KeyVector k : Vectors.keys()) {
        if (k.encoded().length > 0) {
          kv.set(KvKey.decode(k.encoded()), k.id());
        }
      }
      kv.set(KvKey.of("u64"), KvU64.MAX);
      kv.set(KvKey.of("bytes"), new byte[] {0, 1, 2});
    }
    Jar.Run export = kvasir.run("export");
    assertThat(export.exit()).as(export.err()).isZero();
    Jar.Run imported = kvasir.runWithInput(export.out().getBytes(StandardCharsets.UTF_8),
        "import", "--db", "copy.sqlite3");
    assertThat(imported.exit()).as(imported.err()).isZero();
    List<KvEntry> original = all("kvasir.sqlite3");
    List<KvEntry> copy = all("copy.sqlite3");
    assertThat(copy.stream().map(e -> e.key().toString()).toList())
        .containsExactlyElementsOf(original.stream().map(e -> e.key().toString()).toList());
    for (int i = 0; i < original.size(); i++) {
      KvEntry a = original.get(i);
      KvEntry b = copy.get(i);
      assertThat(b.key().encode()).as("key %s", a.key()).isEqualTo(a.key().encode());
      assertThat(b.encodedValue().encoding()).as("encoding of %s", a.key())
          .isEqualTo(a.encodedValue().encoding());
      assertThat(b.encodedValue().bytes()).as("value of %s", a.key())
          .isEqualTo(a.encodedValue().bytes());
    }
  }

  private List<KvEntry> all(String file) {
    try (Kv kv = Kv.open(dir.resolve(file).toString())) {
      return kv.list(ListSelector.prefix(KvKey.of())).stream().toList();
    }
  }

  @Test
  void import_stopsAtABadLine_keepsWhatCameBefore_andResumesWithSkip() throws Exception {
    String lines = "{\"key\":[\"a\"],\"value\":1}\n{\"key\":[\"b\"],\"value\":2}\n"
        + "{\"key\":[\"c\"],\"value\":{\"$bigint\":\"x\"}}\n{\"key\":[\"d\"],\"value\":4}\n";
    Path file = dir.resolve("in.ndjson");
    Files.writeString(file, lines);
    Jar.Run failed = kvasir.run("import", file.toString());
    assertThat(failed.exit()).isEqualTo(1);
    assertThat(failed.err()).contains("import stopped at line 3: $bigint needs an integer")
        .contains("Lines 1-2 are imported").contains("--skip 2");
    assertThat(kvasir.run("count").out()).isEqualTo("2\n");
    Files.writeString(file, lines.replace("{\"$bigint\":\"x\"}", "{\"$bigint\":\"3\"}"));
    assertThat(kvasir.run("import", file.toString(), "--skip", "2").exit()).isZero();
    assertThat(kvasir.run("get", "[\"c\"]").out()).isEqualTo("{\"$bigint\":\"3\"}\n");
    assertThat(kvasir.run("count").out()).isEqualTo("4\n");
  }

  @Test
  void import_refusesALineWithTwoValues_ratherThanDroppingTheSecond() throws Exception {
    Path file = dir.resolve("joined.ndjson");
    Files.writeString(file, "{\"key\":[\"a\"],\"value\":1}\n"
        + "{\"key\":[\"b\"],\"value\":2} {\"key\":[\"c\"],\"value\":3}\n");
    Jar.Run failed = kvasir.run("import", file.toString());
    assertThat(failed.exit()).isEqualTo(1);
    assertThat(failed.err())
        .contains("import stopped at line 2: not JSON: more text after the value, at column 25");
    assertThat(kvasir.run("count").out()).isEqualTo("1\n");
  }

  @Test
  void watch_printsEachEmission() throws Exception {
    assertThat(kvasir.run("set", "[\"config\"]", "1").exit()).isZero();
    Process watch = kvasir.start("watch", "[\"config\"]", "--json", "--count", "2");
    BufferedReader out = new BufferedReader(new InputStreamReader(watch.getInputStream(),
        StandardCharsets.UTF_8));
    assertThat(out.readLine()).startsWith("[{\"key\":[\"config\"],\"value\":1,");
    assertThat(kvasir.run("set", "[\"config\"]", "2").exit()).isZero();
    assertThat(out.readLine()).startsWith("[{\"key\":[\"config\"],\"value\":2,");
    assertThat(watch.waitFor()).isZero();
  }

  @Test
  void enqueue_thenListen_printsTheMessage() throws Exception {
    assertThat(kvasir.run("enqueue", "{\"task\": \"email\", \"when\": {\"$date\":"
        + " \"2024-01-31T12:00:00Z\"}}").exit()).isZero();
    Jar.Run listen = kvasir.run("listen", "--count", "1");
    assertThat(listen.exit()).as(listen.err()).isZero();
    assertThat(listen.out()).isEqualTo("{\"task\":\"email\",\"when\":{\"$date\":"
        + "\"2024-01-31T12:00:00Z\"}}\n");
  }

  @Test
  void remoteDatabase_overKvConnect() throws Exception {
    String token = "cli-test-token-0123456789";
    try (var engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(token).port(0).start()) {
      assertThat(kvasir.run("set", "[\"remote\"]", "{\"$map\": [[\"k\", 1]]}", "--db",
          server.url(), "--access-token", token).exit()).isZero();
      Object stored = Kv.of(engine).get(KvKey.of("remote")).value();
      assertThat(JsValues.deepEquals(stored, dev.kvasir.value.JsMap.copyOf(Map.of("k", 1.0))))
          .isTrue();
      Jar.Run wrongToken = kvasir.run("get", "[\"remote\"]", "--db", server.url(),
          "--access-token", "wrong-token-123456");
      assertThat(wrongToken.exit()).isEqualTo(3);
      assertThat(wrongToken.err()).contains("Invalid access token");
    }
  }

  /**
   * A write the server refuses (403) did not happen, as a failed check did not: exit 1, which a
   * script can tell from a server it could not reach (3). It was 3.
   */
  @Test
  void remoteDatabase_thatRefusesAWrite_exitsOne() throws Exception {
    String token = "cli-test-token-0123456789";
    try (var engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(token).readOnly(true).port(0)
            .start()) {
      Jar.Run refused = kvasir.run("set", "[\"remote\"]", "1", "--db", server.url(),
          "--access-token", token);
      assertThat(refused.exit()).as(refused.err()).isEqualTo(Kvasir.FAILED);
      assertThat(refused.err()).contains("status=403").contains("serves reads only");
      assertThat(Kv.of(engine).get(KvKey.of("remote")).value()).isNull();
      assertThat(kvasir.run("get", "[\"remote\"]", "--db", server.url(), "--access-token",
          token).exit()).as("a missing key, read from the read-only server")
          .isEqualTo(Kvasir.FAILED);
    }
  }

  @Test
  void helpForEveryCommand_withExamples_andVersion() throws Exception {
    for (String command : List.of("get", "get-many", "set", "delete", "list", "count", "sum",
        "min", "max", "watch", "enqueue", "listen", "export", "import", "info", "serve",
        "shell")) {
      Jar.Run help = kvasir.run("help", command);
      assertThat(help.exit()).isZero();
      assertThat(help.out()).as(command).contains("Usage: kvasir " + command)
          .contains("Example");
    }
    assertThat(kvasir.run("--version").out()).startsWith("kvasir ");
  }
}
