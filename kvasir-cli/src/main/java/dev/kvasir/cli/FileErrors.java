package dev.kvasir.cli;

import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files refused before use, with the reason the system would give later. */
final class FileErrors {
  private FileErrors() {}

  /**
   * Refuses {@code path} if it is a directory, naming it as the system would: where a file is
   * read or replaced, a directory there fails only later, and names nothing or the wrong file.
   */
  static void refuseDirectory(Path path) throws FileSystemException {
    if (Files.isDirectory(path)) {
      throw new FileSystemException(path.toString(), null, "Is a directory");
    }
  }
}
