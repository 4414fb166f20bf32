package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.Blocking;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar's lossless copies: export/import with expiries and versionstamps, backup,
 * restore, diff and replicate with their refusals, and a read-only server on a growing replica.
 */
class BackupCliIT {
  private static final String TOKEN = "backup-cli-token";

  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void jar() {
    kvasir = new Jar(dir);
  }

  @Test
  void exportImport_keepsExpiries_andWithKeepVersionstampsEverything() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("a.sqlite3").toString())) {
      kv.set(KvKey.of("plain"), 1);
      kv.set(KvKey.of("expiring"), "soon", Duration.ofHours(2));
    }
    Jar.Run export = kvasir.run("export", "--db", "a.sqlite3", "--output", "a.ndjson");
    assertThat(export.exit()).as(export.err()).isZero();
    assertThat(Files.readString(dir.resolve("a.ndjson"))).contains("\"expiresAt\":\"");

    Jar.Run exact = kvasir.run("import", "--db", "b.sqlite3", "--keep-versionstamps",
        "a.ndjson");
    assertThat(exact.exit()).as(exact.err()).isZero();
    assertThat(kvasir.fingerprint("b.sqlite3")).isEqualTo(kvasir.fingerprint("a.sqlite3"));
    Jar.Run again = kvasir.run("import", "--db", "b.sqlite3", "--keep-versionstamps",
        "a.ndjson");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("holds entries");

    assertThat(kvasir.run("import", "--db", "c.sqlite3", "a.ndjson").exit()).isZero();
    try (Kv copy = Kv.open(dir.resolve("c.sqlite3").toString())) {
      var entries = new java.util.ArrayList<dev.kvasir.spi.StoredEntry>();
      copy.engine().dump(entries::add);
      assertThat(entries).filteredOn(e -> e.expireAtMs() != -1).hasSize(1);
      long left = entries.stream().filter(e -> e.expireAtMs() != -1).findFirst().orElseThrow()
          .expireAtMs() - System.currentTimeMillis();
      assertThat(left).isBetween(Duration.ofMinutes(110).toMillis(),
          Duration.ofHours(2).toMillis());
    }
  }

  @Test
  void backupRestoreDiffReplicate_andTheirRefusals() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("app.sqlite3").toString())) {
      kv.set(KvKey.of("a"), 1);
      kv.set(KvKey.of("b"), "a value long enough to find in the file");
    }
    Jar.Run first = kvasir.run("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once",
        "--json");
    assertThat(first.exit()).as(first.err()).isZero();
    String firstCommit = Render.JSON.readTree(first.out()).get("commit").asText();
    Jar.Run again = kvasir.run("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once",
        "--json");
    assertThat(again.exit()).as(again.err()).isZero();
    JsonNode unchanged = Render.JSON.readTree(again.out());
    assertThat(unchanged.get("commit").asText()).isEqualTo(firstCommit);
    assertThat(unchanged.get("unchanged").asBoolean()).isTrue();
    assertThat(unchanged.get("entries").asLong()).isEqualTo(2);
    assertThat(unchanged.get("changed").asLong()).isZero();
    try (Kv kv = Kv.open(dir.resolve("app.sqlite3").toString())) {
      kv.delete(KvKey.of("a"));
      kv.set(KvKey.of("c"), 3);
    }
    assertThat(kvasir.run("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once").exit())
        .isZero();
    assertThat(kvasir.fingerprint("dag:bk")).isEqualTo(kvasir.fingerprint("app.sqlite3"));

    Jar.Run past = kvasir.run("get", "--db", "dag:bk", "--at", firstCommit, "[\"a\"]");
    assertThat(past.exit()).as(past.err()).isZero();
    assertThat(past.out().trim()).isEqualTo("1");
    Jar.Run notDag = kvasir.run("get", "--db", "app.sqlite3", "--at", firstCommit, "[\"a\"]");
    assertThat(notDag.exit()).isEqualTo(2);
    assertThat(notDag.err()).contains("--at reads a past state of a dag: database");

    Jar.Run diff = kvasir.run("diff", "--db", "dag:bk", "--from", firstCommit);
    assertThat(diff.exit()).as(diff.err()).isZero();
    assertThat(diff.out().lines().map(l -> l.substring(0, l.indexOf("  "))).toList())
        .containsExactly("- [\"a\"]", "+ [\"c\"]");
    Jar.Run diffJson = kvasir.run("diff", "--db", "dag:bk", "--from", firstCommit, "--json");
    assertThat(diffJson.exit()).as(diffJson.err()).isZero();
    // The key as list --json and export write one: an array, not the key syntax in a string.
    JsonNode removed = Render.JSON.readTree(diffJson.out().lines().findFirst().orElseThrow());
    assertThat(removed.get("key").toString()).isEqualTo("[\"a\"]");
    assertThat(removed.get("change").asText()).isEqualTo("removed");
    Jar.Run notAState = kvasir.run("diff", "--db", "dag:bk", "--from", "yesterday");
    assertThat(notAState.exit()).isEqualTo(2);
    assertThat(notAState.err()).contains("'yesterday' is not a versionstamp");

    Jar.Run restore = kvasir.run("restore", "--from", "dag:bk", "--at", firstCommit, "--to",
        "old.sqlite3");
    assertThat(restore.exit()).as(restore.err()).isZero();
    try (Kv old = Kv.open(dir.resolve("old.sqlite3").toString())) {
      assertThat(old.get(KvKey.of("a")).value(Long.class)).isEqualTo(1L);
      assertThat(old.get(KvKey.of("c")).exists()).isFalse();
    }
    Jar.Run exists = kvasir.run("restore", "--from", "dag:bk", "--to", "old.sqlite3");
    assertThat(exists.exit()).isEqualTo(3);
    assertThat(exists.err()).contains("exists");
    Jar.Run noDirectory = kvasir.run("restore", "--from", "dag:bk", "--to", "gone/r.sqlite3");
    assertThat(noDirectory.exit()).isEqualTo(3);
    // Named as given, not as the file built aside (gone/r.sqlite3.restoring-PID).
    assertThat(noDirectory.err()).contains("gone/r.sqlite3: its directory")
        .doesNotContain("restoring");

    Jar.Run replicate = kvasir.run("replicate", "dag:bk", "dag:replica", "--json");
    assertThat(replicate.exit()).as(replicate.err()).isZero();
    assertThat(Render.JSON.readTree(replicate.out()).get("commits").asInt()).isEqualTo(2);
    assertThat(kvasir.run("replicate", "dag:bk", "history.car").exit()).isZero();
    assertThat(kvasir.run("replicate", "history.car", "dag:from-car").exit()).isZero();
    assertThat(kvasir.fingerprint("dag:from-car")).isEqualTo(kvasir.fingerprint("app.sqlite3"));

    Path log = dir.resolve("bk").resolve("blocks.kvdag");
    byte[] bytes = Files.readAllBytes(log);
    bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf("long enough")] ^= 1;
    Files.write(log, bytes);
    Jar.Run damagedRestore = kvasir.run("restore", "--from", "dag:bk", "--to", "new.sqlite3");
    assertThat(damagedRestore.exit()).isEqualTo(3);
    assertThat(damagedRestore.err()).contains("bafy").contains("damaged");
    assertThat(dir.resolve("new.sqlite3")).doesNotExist();
    Jar.Run damagedReplicate = kvasir.run("replicate", "dag:bk", "dag:other");
    assertThat(damagedReplicate.exit()).isEqualTo(3);
    assertThat(damagedReplicate.err()).contains("bafy").contains("damaged");
  }

  @Test
  void aReadOnlyServer_servesTheReplicaAsItGrows_andRefusesWrites() throws Exception {
    try (Kv kv = Kv.open("dag:" + dir.resolve("primary"))) {
      kv.set(KvKey.of("config"), "v1");
    }
    assertThat(kvasir.run("replicate", "dag:primary", "dag:replica").exit()).isZero();
    try (ServeProcess serve = new ServeProcess(dir, Map.of(), "--db", "dag:replica", "--port",
        "0", "--access-token", TOKEN, "--read-only");
        Kv remote = Kv.open(serve.url(), KvOptions.defaults().with("accessToken", TOKEN));
        WatchStream watch = remote.watch(List.of(KvKey.of("config")))) {
      assertThat(watch.next().get(0).value(String.class)).isEqualTo("v1");
      CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
      try (Kv kv = Kv.open("dag:" + dir.resolve("primary"))) {
        kv.set(KvKey.of("config"), "v2");
      }
      assertThat(kvasir.run("replicate", "dag:primary", "dag:replica").exit()).isZero();
      assertThat(next.get(20, TimeUnit.SECONDS).get(0).value(String.class)).isEqualTo("v2");
      assertThatThrownBy(() -> remote.set(KvKey.of("config"), "v3"))
          .isInstanceOf(KvException.class);
      assertThat(remote.get(KvKey.of("config")).value(String.class)).isEqualTo("v2");
    }
  }
}
