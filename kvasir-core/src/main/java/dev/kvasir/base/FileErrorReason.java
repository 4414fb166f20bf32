package dev.kvasir.base;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in the words of the C library's messages, without the file's
 * name: the caller names the file once. Java's message for a missing file is its path alone, so
 * "cannot read cert.pem: cert.pem" said nothing, and other messages repeat the path.
 */
public final class FileErrorReason {
  private FileErrorReason() {}

  /** The operating system's reason for {@code e} ("Read-only file system", "permission denied"). */
  public static String of(IOException e) {
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    if (e instanceof NoSuchFileException missing) {
      return "no such file or directory"
          + unexpandedTilde(String.valueOf(missing.getFile()));
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

  /**
   * For a path that is not found and starts with {@code ~}, why: neither Java nor a program
   * expands it, and a shell does only at the start of a word ({@code --db=~/app.db} and a
   * quoted {@code '~/app.db'} keep it, as do configuration files and environment variables).
   * Empty for any other path.
   */
  public static String unexpandedTilde(String path) {
    return path.startsWith("~") ? " (~ is not expanded here: write the home directory's path,"
        + " or ~/… as a word of its own on a shell's command line)" : "";
  }
}
