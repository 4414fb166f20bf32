package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.WatchStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed database is whole in its file alone (docs/sqlite.md §7): the last connection to
 * close, the writer's, checkpoints the write-ahead log into it and deletes the log. After a
 * watch, the connection that polls for other processes' commits closed after the writer, and
 * the file alone held none of the commits since the last checkpoint.
 */
class WholeFileAfterCloseTest {
  private static final int ENTRIES = 100;

  @TempDir Path dir;

  @Test
  void afterAWatchThatHeardAnotherProcess_theClosedFileAloneHoldsEveryCommit() throws Exception {
    Path file = dir.resolve("app.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      commitEntriesWhileWatchingAForeignCommit(kv, file);
    }
    assertWholeAlone(file);
  }

  @Test
  void withTwoEnginesOnTheFile_theLastToCloseLeavesItWhole() throws Exception {
    Path file = dir.resolve("two.sqlite3");
    try (Kv first = Kv.open(file.toString())) {
      Kv second = Kv.open(file.toString());
      commitEntriesWhileWatchingAForeignCommit(second, file);
      second.close(); // not the last: the poll goes on for the first
      assertThat(Files.exists(Path.of(file + "-wal"))).as("the first still has it open").isTrue();
      assertThat(first.get(KvKey.of("n", 0)).exists()).isTrue();
    }
    assertWholeAlone(file);
  }

  /**
   * Commits {@link #ENTRIES} sets and watches a key until a commit of a plain SQLite connection,
   * another process's in effect, deletes it: heard only through the poll, whose connection is
   * then certainly open.
   */
  private static void commitEntriesWhileWatchingAForeignCommit(Kv kv, Path file)
      throws Exception {
    KvKey watched = KvKey.of("x");
    kv.set(watched, "here");
    for (int i = 0; i < ENTRIES; i++) {
      kv.set(KvKey.of("n", i), i);
    }
    try (WatchStream watch = kv.watch(List.of(watched))) {
      Iterator<List<KvEntry>> emissions = watch.iterator();
      assertThat(emissions.next().get(0).exists()).isTrue();
      try (Connection plain = DriverManager.getConnection("jdbc:sqlite:" + file)) {
        plain.setAutoCommit(false);
        try (PreparedStatement delete = plain.prepareStatement("delete from kv where k = ?");
            Statement bump = plain.createStatement()) {
          delete.setBytes(1, watched.encode());
          delete.executeUpdate();
          bump.executeUpdate("update data_version set version = version + 1 where k = 0");
        }
        plain.commit();
      }
      assertThat(emissions.next().get(0).exists()).as("the deletion, heard by the poll")
          .isFalse();
    }
  }

  private void assertWholeAlone(Path file) throws Exception {
    assertThat(Files.exists(Path.of(file + "-wal"))).as("the log deleted").isFalse();
    Path copy = Files.createDirectories(dir.resolve("copy")).resolve("alone.sqlite3");
    Files.copy(file, copy);
    try (Kv kv = Kv.open(copy.toString())) {
      int n = 0;
      for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("n")))) {
        assertThat(e.value()).isEqualTo((double) n);
        n++;
      }
      assertThat(n).isEqualTo(ENTRIES);
    }
  }
}
