package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.Hex;
import dev.kvasir.base.KvException;
import dev.kvasir.golden.Vectors;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files: Deno's sample file, schema identity, migrations, and files that must be refused. */
class SqliteFileTest {
  @TempDir Path dir;

  private Path copyOfSample() throws Exception {
    Path file = dir.resolve("sample.sqlite3");
    try (InputStream in = Vectors.class.getResourceAsStream("/vectors/denokv/sample.sqlite3")) {
      Files.copy(in, file);
    }
    return file;
  }

  private static List<String> query(Path file, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    }
    return out;
  }

  private static void execute(Path file, String... statements) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  @Test
  void denoSampleFile_yieldsExactlyItsLiveEntriesAndVersionstamps() throws Exception {
    JsonNode sample = Vectors.json("sample.json");
    Path file = copyOfSample();
    long now = System.currentTimeMillis();
    List<String> expected = new ArrayList<>();
    for (JsonNode row : sample.get("kv_rows_in_key_order")) {
      long expiration = row.get("expiration_ms").asLong();
      if (expiration < 0 || expiration > now) {
        expected.add(row.get("k_hex").asText() + " " + row.get("v_encoding").asInt() + ":"
            + row.get("v_hex").asText() + " " + row.get("versionstamp_reported_by_deno").asText());
      }
    }
    assertThat(expected).hasSizeGreaterThan(10);
    try (Kv kv = Kv.open(file.toString())) {
      List<String> actual = new ArrayList<>();
      for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of()))) {
        actual.add(Hex.encode(e.key().encode()) + " " + e.encodedValue() + " "
            + e.versionstamp());
        e.value(); // every value decodes
      }
      List<String> normalized = actual.stream()
          .map(s -> s.replace("V8:", "1:").replace("LE64:", "2:").replace("BYTES:", "3:"))
          .toList();
      assertThat(normalized).containsExactlyElementsOf(expected);
      long dataVersion = sample.get("data_version").get(0).get("version").asLong();
      assertThat(kv.set(KvKey.of("after"), 1).versionstamp().version())
          .isGreaterThan(dataVersion);
    }
  }

  @Test
  void freshFile_hasDenosSchemaStatementForStatement() throws Exception {
    Path file = dir.resolve("fresh.sqlite3");
    Kv.open(file.toString()).close();
    List<String> expected = new ArrayList<>();
    Vectors.json("sample.json").get("schema_sql")
        .forEach(n -> expected.add(n.asText()));
    assertThat(query(file, "select sql from sqlite_master where sql is not null order by rowid"))
        .containsExactlyElementsOf(expected);
    assertThat(query(file, "select version from migration_state where k = 0"))
        .containsExactly("3");
    assertThat(query(file, "select version from data_version where k = 0"))
        .containsExactly("0");
    assertThat(query(file, "pragma journal_mode")).containsExactly("wal");
  }

  @Test
  void olderMigrationLevel_isUpgradedInPlace() throws Exception {
    Path file = dir.resolve("old.sqlite3");
    execute(file,
        "create table if not exists migration_state(\n  k integer not null primary key,\n"
            + "  version integer not null\n)",
        "create table data_version (\n  k integer primary key,\n  version integer not null\n)",
        "insert into data_version (k, version) values (0, 5)",
        "create table kv (\n  k blob primary key,\n  v blob not null,\n"
            + "  v_encoding integer not null,\n  version integer not null\n) without rowid",
        "insert into kv values (x'026100', x'ff104902', 1, 5)",
        "replace into migration_state (k, version) values(0, 1)");
    try (Kv kv = Kv.open(file.toString())) {
      KvEntry a = kv.get(KvKey.of("a"));
      assertThat(a.value()).isEqualTo(1.0);
      assertThat(a.versionstamp().version()).isEqualTo(5);
    }
    assertThat(query(file, "select version from migration_state")).containsExactly("3");
    List<String> fresh = new ArrayList<>();
    Vectors.json("sample.json").get("schema_sql")
        .forEach(n -> fresh.add(n.asText()));
    assertThat(query(file, "select sql from sqlite_master where sql is not null order by rowid"))
        .containsExactlyElementsOf(fresh);
  }

  @Test
  void otherApplicationsFile_isRefusedAndLeftUnchanged() throws Exception {
    Path file = dir.resolve("app.sqlite3");
    execute(file, "create table users (id integer primary key, name text)",
        "insert into users values (1, 'alice')");
    String before = sha256(file);
    assertThatThrownBy(() -> Kv.open(file.toString())).isInstanceOf(KvException.class)
        .hasMessageContaining("is not a Deno KV database")
        .hasMessageContaining("[users]");
    assertThat(sha256(file)).isEqualTo(before);
  }

  @Test
  void newerSchemaLevel_isRefusedAndLeftUnchanged() throws Exception {
    Path file = copyOfSample();
    execute(file, "pragma journal_mode = delete",
        "replace into migration_state (k, version) values(0, 4)");
    String before = sha256(file);
    assertThatThrownBy(() -> Kv.open(file.toString())).isInstanceOf(KvException.class)
        .hasMessageContaining("schema migration level 4, this version knows up to 3");
    assertThat(sha256(file)).isEqualTo(before);
  }

  /** A Java user's first guess at a location; it made a file named after the whole URL. */
  @Test
  void aJdbcUrl_isRefusedSayingWhatToGive_andMakesNoFile() throws Exception {
    Path dbDir = Files.createDirectory(dir.resolve("jdbc"));
    String url = "jdbc:sqlite:" + dbDir.resolve("app.db");
    assertThatThrownBy(() -> Kv.open(url))
        .isInstanceOf(KvException.class)
        .hasMessageStartingWith("no engine opens '" + url + "'")
        .hasMessageContaining("the file's path for SQLite (jdbc:sqlite:app.db is app.db)");
    try (var files = Files.list(dbDir)) {
      assertThat(files).isEmpty();
    }
    assertThat(Files.exists(Path.of(url))).isFalse();
  }

  /** Java expands no ~, nor does a shell after '=' or in quotes: the error says so. */
  @Test
  void aPathStartingWithATilde_thatIsNotFound_isSaidToBeUnexpanded() {
    assertThatThrownBy(() -> Kv.open("~/sqlite-file-test-no-such-dir/app.db"))
        .hasMessageContaining("its directory ")
        .hasMessageEndingWith(" does not exist (~ is not expanded here: write the home"
            + " directory's path, or ~/… as a word of its own on a shell's command line)");
    assertThat(Files.exists(Path.of("~"))).isFalse();
  }

  @Test
  void fileThatIsNotADatabase_isRefusedAndLeftUnchanged() throws Exception {
    Path file = dir.resolve("notes.sqlite3");
    Files.writeString(file, "these are my notes, not a database ".repeat(200));
    String before = sha256(file);
    assertThatThrownBy(() -> Kv.open(file.toString())).isInstanceOf(KvException.class)
        .hasMessageContaining(file.toString());
    assertThat(sha256(file)).isEqualTo(before);
    assertThat(Files.exists(dir.resolve("notes.sqlite3-wal"))).isFalse();
  }

  @Test
  void close_afterReadsAndWrites_leavesTheFileWholeWithoutALog() throws Exception {
    Path file = dir.resolve("whole.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      kv.set(KvKey.of("a"), "here");
      assertThat(kv.get(KvKey.of("a")).value()).isEqualTo("here"); // a reader connection
    }
    assertThat(Files.exists(dir.resolve("whole.sqlite3-wal"))).isFalse();
    assertThat(query(file, "select count(*) from kv")).containsExactly("1");
  }

  @Test
  void truncatedDatabase_failsClearly() throws Exception {
    Path file = copyOfSample();
    byte[] bytes = Files.readAllBytes(file);
    Path cut = dir.resolve("cut.sqlite3");
    Files.write(cut, java.util.Arrays.copyOf(bytes, 100));
    assertThatThrownBy(() -> {
      try (Kv kv = Kv.open(cut.toString())) {
        kv.list(ListSelector.prefix(KvKey.of())).forEach(e -> { });
      }
    }).isInstanceOf(KvException.class);
  }

  /**
   * A read that hits a damaged page fails, and the driver finalizes the statement that failed;
   * once the file is whole again, the same reader connection reads (docs/sqlite.md §8).
   */
  @Test
  void damagedPages_failTheRead_andTheReaderRecoversOnceTheFileIsWhole() throws Exception {
    Path file = dir.resolve("damaged.sqlite3");
    String big = "x".repeat(1000);
    try (Kv kv = Kv.open(file.toString())) {
      for (int i = 0; i < 2000; i += 100) {
        var op = kv.atomic();
        for (int j = i; j < i + 100; j++) {
          op.set(KvKey.of("k", j), big);
        }
        op.commit();
      }
    }
    byte[] whole = Files.readAllBytes(file);
    try (Kv kv = Kv.of(SqliteEngine.open(SqliteConfig.of(file.toString()).readers(1)))) {
      assertThat(kv.get(KvKey.of("k", 0)).value()).isEqualTo(big);
      byte[] damaged = whole.clone();
      java.util.Arrays.fill(damaged, 4096, damaged.length, (byte) 0x5a);
      Files.write(file, damaged);
      assertThatThrownBy(() -> kv.get(KvKey.of("k", 1999))).isInstanceOf(KvException.class);
      assertThatThrownBy(() -> kv.list(ListSelector.prefix(KvKey.of("k"))).forEach(e -> { }))
          .isInstanceOf(KvException.class);

      Files.write(file, whole);
      kv.set(KvKey.of("after"), 1); // a commit: readers drop the pages they cached
      assertThat(kv.get(KvKey.of("k", 1999)).value()).isEqualTo(big);
      assertThat(kv.list(ListSelector.prefix(KvKey.of("k"))).stream().count()).isEqualTo(2000);
    }
  }

  @Test
  void kvOpen_picksSqliteForPathsAndMemory_andNamesEnginesForUrls() throws Exception {
    Path file = dir.resolve("via-open.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      kv.set(KvKey.of("x"), 1);
    }
    assertThat(query(file, "select count(*) from kv")).containsExactly("1");
    try (Kv kv = Kv.open(":memory:")) {
      kv.set(KvKey.of("x"), 1);
      assertThat(kv.get(KvKey.of("x")).value()).isEqualTo(1.0);
    }
    assertThatThrownBy(() -> Kv.open("redis://x")).hasMessageContaining("sqlite (a file path")
        .hasMessageContaining("memory (\":memory:\")");
  }
}
