package dev.kvasir.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Why a file could not be used, in the words of the C library's messages. Java's own message
 * for a missing file is its path alone, so "cannot read the access token from token.txt:
 * token.txt" said nothing.
 */
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

  static String reason(IOException e) {
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason(); // the operating system's ("Is a directory", …)
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "already exists";
    }
    if (e instanceof FileSystemException) {
      return e.getClass().getSimpleName();
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
