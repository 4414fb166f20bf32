package dev.kvasir.sqlite;

import dev.kvasir.base.FileErrorReason;
import dev.kvasir.base.KvException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What must hold of a database file before SQLite opens it, and how to open one on storage that
 * cannot be written (docs/sqlite.md §10): SQLite itself says only "unable to open database
 * file", or opens the file read-only without a word.
 */
final class FileChecks {
  private FileChecks() {}

  /**
   * Refuses, before SQLite opens it, a path that names a directory, lies in a directory that
   * does not exist or names a file that cannot be read, and for writing a file that cannot be
   * written: SQLite would open such a file read-only without a word, and every commit, sweep
   * and queue delivery would then fail (docs/sqlite.md §10).
   */
  static void refuseUnusable(Path path, boolean readOnly) {
    if (Files.isDirectory(path)) {
      throw new KvException("cannot open " + path + ": it is a directory, not a database file;"
          + " name a file, for example " + path.resolve("kv.sqlite3"));
    }
    Path parent = path.toAbsolutePath().getParent();
    if (!Files.exists(path) && parent != null && !Files.isDirectory(parent)) {
      // SQLite says only "unable to open database file"; it creates no directories.
      throw new KvException("cannot " + (readOnly ? "open " : "create ") + path
          + ": its directory " + parent + " does not exist"
          + FileErrorReason.unexpandedTilde(path.toString()));
    }
    if (Files.exists(path) && !Files.isReadable(path)) {
      // SQLite says only "unable to open database file"; read-only would not help either.
      throw new KvException("cannot open " + path + ": the user "
          + System.getProperty("user.name") + " may not read it (its permissions)");
    }
    if (readOnly) {
      return;
    }
    if (Files.exists(path) && !Files.isWritable(path)) {
      throw new KvException("cannot open " + path + " for writing: the file is read-only (its"
          + " permissions, its attributes or its file system). Open it read-only to read it:"
          + " sqlite.readOnly=true, or kvasir serve --read-only");
    }
    if (!onReadOnlyStorage(path.toString())) {
      return;
    }
    if (!Files.exists(path)) {
      throw new KvException("cannot create " + path + ": its directory " + parent
          + " cannot be written");
    }
    Path wal = Path.of(path + "-wal");
    Path shm = Path.of(path + "-shm");
    if (!Files.exists(wal) || !Files.exists(shm)) {
      throw new KvException("cannot open " + path + " for writing: its directory " + parent
          + " cannot be written, and SQLite keeps the write-ahead log beside the file (" + wal
          + ", " + shm + "). Open it read-only to read it: sqlite.readOnly=true, or kvasir"
          + " serve --read-only");
    }
  }

  /** Whether the file's directory exists and cannot be written. */
  static boolean onReadOnlyStorage(String path) {
    Path dir = Path.of(path).toAbsolutePath().getParent();
    return dir != null && Files.isDirectory(dir) && !Files.isWritable(dir);
  }

  /**
   * The file as unchangeable: on a read-only file system SQLite cannot create the WAL's shared
   * memory file, so it must neither lock nor look for a log. Only right when no log holds
   * commits, which a read-only file system could not apply anyway.
   */
  static String immutable(String path) {
    Path wal = Path.of(path + "-wal");
    try {
      if (Files.exists(wal) && Files.size(wal) > 0) {
        throw new KvException(path + " has a write-ahead log that cannot be applied on a"
            + " read-only file system; open it once where it can be written");
      }
    } catch (IOException e) {
      throw new KvException("cannot read " + wal + ": " + e.getMessage(), e);
    }
    return "jdbc:sqlite:" + Path.of(path).toAbsolutePath().toUri() + "?immutable=1";
  }
}
