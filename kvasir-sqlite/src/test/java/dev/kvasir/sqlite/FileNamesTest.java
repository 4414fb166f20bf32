package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.base.KvArgumentException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Locations no one means as file names are refused before any file is made, with what to give
 * instead; each of them made a file in the working directory (docs/sqlite.md §1).
 */
class FileNamesTest {
  @Test
  void aNameStartingWithAColon_isRefusedAsDenoRefusesIt_butMemoryIsADatabaseInMemory() {
    assertThatThrownBy(() -> Kv.open(":memory")).isInstanceOf(KvArgumentException.class)
        .hasMessage("Filename cannot start with ':' unless prefixed with './': ':memory'"
            + " (':memory:' is a database in memory)");
    assertThat(Files.exists(Path.of(":memory"))).isFalse();
    try (Kv kv = Kv.open(":memory:")) {
      assertThat(kv.engine()).isInstanceOf(SqliteEngine.class);
    }
  }

  @Test
  void aLocationThatReadsAsAUrl_isRefused_sayingHowToNameSuchAFile() {
    assertThatThrownBy(() -> Kv.open("sqlite:fn-test.db"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("no engine takes locations starting 'sqlite:', as in 'sqlite:fn-test.db';"
            + " for a file of that name, write ./sqlite:fn-test.db");
    assertThatThrownBy(() -> Kv.open("memory:")).hasMessageEndingWith(
        "write ./memory: (':memory:' is a database in memory)");
    assertThatThrownBy(() -> Kv.open("file:fn-test.db")).hasMessage("'file:fn-test.db' is a"
        + " SQLite URI file name, which Kvasir does not take (nor does Deno): give the file's"
        + " path");
    assertThat(Files.exists(Path.of("sqlite:fn-test.db"))).isFalse();
    assertThat(Files.exists(Path.of("memory:"))).isFalse();
    assertThat(Files.exists(Path.of("file:fn-test.db"))).isFalse();
  }

  @Test
  void sqliteUriParameters_areRefused_pointingAtTheOptions() {
    assertThatThrownBy(() -> Kv.open("fn-test.db?mode=ro"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("holds SQLite URI parameters")
        .hasMessageContaining("sqlite.readOnly=true");
    assertThat(Files.exists(Path.of("fn-test.db?mode=ro"))).isFalse();
  }

  @Test
  void aBlankName_isRefused() {
    assertThatThrownBy(() -> Kv.open("  ")).isInstanceOf(KvArgumentException.class)
        .hasMessage("Filename cannot be blank: '  '");
  }

  @Test
  void aNameWrittenFromTheCurrentDirectory_orAWindowsDrive_isAFileName() {
    for (String name : new String[] {"./sqlite:app.db", "./:x", "./a.db?mode=ro", "C:\\data\\a.db",
        "backup-2026-11-29T10:00.sqlite3", "data/2026:11.db"}) {
      assertThatCode(() -> FileNames.check(name)).as(name).doesNotThrowAnyException();
      assertThat(FileNames.looksLikeUrl(name)).as(name).isFalse();
    }
  }

  /** An engine added for a scheme outranks SQLite, which takes such a location to refuse it. */
  @Test
  void aUrlLikeLocation_isTakenLast() {
    SqliteEngineProvider sqlite = new SqliteEngineProvider();
    assertThat(sqlite.priority("redis:6379")).isEqualTo(1);
    assertThat(sqlite.priority("app.db")).isEqualTo(10);
  }
}
