package dev.kvasir.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The database file as it was opened, to notice that its path was deleted or now names another
 * file (docs/sqlite.md §10). SQLite in WAL mode goes on committing into a deleted file, whose
 * commits vanish when it closes, so the writer asks before each batch.
 */
final class OpenedFile {
  private final Path path;
  /** The file system's identity of the file (device and inode on Linux). */
  private final Object key;

  private OpenedFile(Path path, Object key) {
    this.path = path;
    this.key = key;
  }

  /**
   * The file at {@code path} now; empty when the platform gives files no identity or the path
   * cannot be read, in which case nothing is watched.
   */
  static Optional<OpenedFile> at(String path) {
    Path p = Path.of(path);
    try {
      Object key = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
      return key == null ? Optional.empty() : Optional.of(new OpenedFile(p, key));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Empty while the path still names the file opened; else what became of it. One stat. */
  Optional<String> change() {
    try {
      Object now = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      return key.equals(now) ? Optional.empty()
          : Optional.of(path + " was replaced by another file while open");
    } catch (NoSuchFileException e) {
      return Optional.of(path + " was deleted or moved away while open");
    } catch (IOException e) {
      return Optional.empty(); // cannot tell: the commit itself will meet a real fault
    }
  }
}
