package dev.kvasir.engine;

import dev.kvasir.base.KvUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * An engine's file as it was opened, to notice that its path was deleted or now names another
 * file (docs/sqlite.md §10). A Unix process keeps writing to a file it holds open after its
 * path is deleted, and those commits vanish with the file once it closes, so an engine asks
 * before each commit: one {@code stat}, about 2 µs.
 */
public final class OpenedFile {
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
  public static Optional<OpenedFile> at(Path path) {
    try {
      Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      return key == null ? Optional.empty() : Optional.of(new OpenedFile(path, key));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The file system's identity of the file as it was opened, as text: something another file
   * at the same path, or a copy, does not have.
   */
  public String identity() {
    return key.toString();
  }

  /** Empty while the path still names the file opened; else what became of it. */
  public Optional<String> change() {
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

  /** The error for a commit refused because of {@code change}: not applied. */
  public static KvUnavailableException commitRefused(String change) {
    return new KvUnavailableException(change + "; commits are refused, since they would go into"
        + " a file that this path no longer names, and be lost if it was deleted. Reopen the"
        + " database (restart kvasir serve) to write to the file the path names now.", false,
        null);
  }
}
