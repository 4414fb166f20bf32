package dev.kvasir.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The write-ahead log and its index that a read-only engine's connections make beside a file
 * that had none (docs/sqlite.md §7). A read-only connection may not checkpoint, so SQLite leaves
 * both when it closes, where the last close of any other connection (Deno's, sqlite3's, a
 * read-write engine's) removes them: {@code kvasir get} left {@code -wal} and {@code -shm}
 * beside a file that Deno had left alone.
 */
final class ReadOnlyLeftovers {
  private static final Logger LOG = LoggerFactory.getLogger(ReadOnlyLeftovers.class);

  private final Path file;
  private final boolean hadNone;

  private ReadOnlyLeftovers(Path file, boolean hadNone) {
    this.file = file;
    this.hadNone = hadNone;
  }

  /** Looks, before the engine opens {@code file}, whether the log and its index exist. */
  static ReadOnlyLeftovers before(Path file) {
    return new ReadOnlyLeftovers(file,
        !Files.exists(Path.of(file + "-wal")) && !Files.exists(Path.of(file + "-shm")));
  }

  /**
   * After the engine's connections have closed, removes what they made: a read-write connection
   * that reads and closes is the file's last one, so SQLite checkpoints the empty log and
   * deletes both, unless another connection, in any process, still has the file open, which
   * keeps them. The log is empty, unless another process committed into it meanwhile and ended
   * without a checkpoint, whose commits the checkpoint then copies into the file as that
   * process's next open would. Where they existed before, or where the file cannot be written,
   * nothing is done.
   */
  void remove() {
    Path dir = file.toAbsolutePath().getParent();
    if (!hadNone || !Files.isWritable(file) || dir == null || !Files.isWritable(dir)
        || !Files.exists(Path.of(file + "-wal"))) {
      return;
    }
    try (Connection c = new SQLiteConfig().createConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("select count(*) from sqlite_master"); // opens the log: its close removes it
    } catch (SQLException e) {
      LOG.debug("could not remove the log a read-only open left beside {}", file, e);
    }
  }
}
