package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only engine leaves a file as it found it (docs/sqlite.md §7): it made a write-ahead log
 * and its index beside the file, and a read-only connection may not remove them.
 */
class ReadOnlyLeftoversTest {
  @TempDir Path dir;

  private Path written() {
    Path file = dir.resolve("kv.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      kv.set(KvKey.of("k"), "v");
    }
    return file;
  }

  private static Kv readOnly(Path file) {
    return Kv.of(SqliteEngine.open(SqliteConfig.of(file.toString()).readOnly(true)));
  }

  private static boolean logExists(Path file) {
    return Files.exists(Path.of(file + "-wal")) || Files.exists(Path.of(file + "-shm"));
  }

  @Test
  void readingAFileAlone_leavesNoLogBehind_andTheFileUnchanged() throws Exception {
    Path file = written();
    assertThat(logExists(file)).isFalse();
    byte[] before = Files.readAllBytes(file);
    try (Kv kv = readOnly(file)) {
      assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("v");
      assertThat(logExists(file)).as("SQLite's, while open").isTrue();
    }
    assertThat(logExists(file)).isFalse();
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void whileAnotherConnectionHasTheFileOpen_itsLogStays() throws Exception {
    Path file = written();
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = other.createStatement()) {
      s.executeQuery("select count(*) from kv").close();
      try (Kv kv = readOnly(file)) {
        assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("v");
      }
      assertThat(logExists(file)).isTrue();
      try (ResultSet r = s.executeQuery("select count(*) from kv")) {
        r.next();
        assertThat(r.getInt(1)).isEqualTo(1);
      }
    }
    assertThat(logExists(file)).as("removed by the other's close").isFalse();
  }
}
