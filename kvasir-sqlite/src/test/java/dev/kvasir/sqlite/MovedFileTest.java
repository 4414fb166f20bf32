package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file under an open engine deleted or replaced (docs/sqlite.md §10): SQLite would go on
 * committing into the file that lost its path, and those commits would vanish at close. The
 * engine refuses them as unavailable, names what happened, and keeps reading.
 */
class MovedFileTest {
  @TempDir Path dir;

  @Test
  void aDeletedFile_refusesCommits_whichWouldBeLost() throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()));
    try (Kv kv = Kv.of(engine)) {
      kv.set(KvKey.of("before"), 1);
      assertThat(engine.storageProblem()).isEmpty();

      Files.delete(file);

      for (int i = 0; i < 2; i++) { // every commit, not only the first
        assertThatThrownBy(() -> kv.set(KvKey.of("after"), 2))
            .isInstanceOfSatisfying(KvUnavailableException.class,
                e -> assertThat(e.maybeApplied()).isFalse())
            .hasMessageContaining(file + " was deleted or moved away while open")
            .hasMessageContaining("commits are refused");
      }
      assertThat(engine.storageProblem()).hasValueSatisfying(
          why -> assertThat(why).contains("was deleted or moved away while open"));
    }
    // A new file at the path is a new database, which nothing was acknowledged into.
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(KvKey.of("after")).value()).isNull();
    }
  }

  @Test
  void aFileReplacedByAnother_refusesCommits_andTheNewFileKeepsItsOwn() throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    Path restored = dir.resolve("restored.sqlite3");
    try (Kv other = Kv.open(restored.toString())) {
      other.set(KvKey.of("from"), "the restored file");
    }
    SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()));
    try (Kv kv = Kv.of(engine)) {
      kv.set(KvKey.of("from"), "the file opened");

      Files.move(restored, file, StandardCopyOption.REPLACE_EXISTING);

      assertThatThrownBy(() -> kv.set(KvKey.of("late"), 1))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining(file + " was replaced by another file while open");
      assertThat(engine.storageProblem()).isPresent();
    }
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(KvKey.of("from")).value()).isEqualTo("the restored file");
      assertThat(kv.get(KvKey.of("late")).value()).isNull();
    }
  }

  @Test
  void aFileMovedAway_keepsEveryCommitItAcknowledged() throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    Path moved = dir.resolve("moved.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      kv.set(KvKey.of("acknowledged"), "before the move"); // in the log beside the old path
      Files.move(file, moved);
      assertThatThrownBy(() -> kv.set(KvKey.of("refused"), 1))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("was deleted or moved away while open");
    }
    try (Kv kv = Kv.open(moved.toString())) {
      assertThat(kv.get(KvKey.of("acknowledged")).value()).isEqualTo("before the move");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + moved);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("pragma integrity_check")) {
      assertThat(r.getString(1)).isEqualTo("ok");
    }
  }

  @Test
  void aFileLeftInPlace_hasNoProblem_andAReadOnlyEngineNeither() {
    Path file = dir.resolve("kv.sqlite3");
    try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(file.toString()))) {
      assertThat(engine.storageProblem()).isEmpty();
    }
    try (SqliteEngine engine =
        SqliteEngine.open(SqliteConfig.of(file.toString()).readOnly(true))) {
      assertThat(engine.storageProblem()).isEmpty();
    }
  }

  @Test
  void aDirectory_isRefusedByName() throws Exception {
    Path sub = Files.createDirectory(dir.resolve("data"));
    assertThatThrownBy(() -> SqliteEngine.open(SqliteConfig.of(sub.toString())))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("it is a directory, not a database file")
        .hasMessageContaining(sub.resolve("kv.sqlite3").toString());
  }

  @Test
  void aFileInADirectoryThatDoesNotExist_isRefusedNamingTheDirectory() {
    Path file = dir.resolve("missing").resolve("kv.sqlite3");
    for (boolean readOnly : new boolean[] {false, true}) {
      assertThatThrownBy(() -> SqliteEngine.open(
          SqliteConfig.of(file.toString()).readOnly(readOnly)))
          .isInstanceOf(KvException.class)
          .hasMessageContaining("its directory " + dir.resolve("missing") + " does not exist");
    }
    assertThat(dir.resolve("missing")).doesNotExist();
  }
}
