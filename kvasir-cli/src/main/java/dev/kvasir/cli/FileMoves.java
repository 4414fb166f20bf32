package dev.kvasir.cli;

import dev.kvasir.base.FileErrorReason;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Files written aside and renamed into place once complete, so that a command that fails or is
 * killed never leaves a partial file under the name a user reads (docs/backup.md §3, §7). A
 * rename within a directory is atomic, and syncing the directory makes it survive a crash.
 */
final class FileMoves {
  private FileMoves() {}

  /** What writes a file, given the path to write it at. */
  interface Writing<T, E extends Exception> {
    T write(Path file) throws E, IOException;
  }

  /**
   * Has {@code writing} write {@code target} beside it, under its name with
   * {@code .partial-PID} added, then syncs that file and renames it to {@code target}. If
   * anything fails, the file written aside is removed and {@code target} stays as it was.
   * Partial files that killed runs left are removed first, saying so on {@code err}.
   *
   * @return what {@code writing} returned
   */
  static <T, E extends Exception> T writeAside(Path target, PrintWriter err,
      Writing<T, E> writing) throws E, IOException {
    requireDirectory(target);
    Path dir = target.toAbsolutePath().getParent();
    // Else the whole file was written aside first, and the rename onto the directory failed
    // naming the partial file: "cannot use out.partial-4711: Is a directory".
    FileErrors.refuseDirectory(target);
    Leftovers leftovers = new Leftovers(target, "partial");
    leftovers.removeStale(err);
    Path partial = leftovers.ours();
    try {
      T result = writing.write(partial);
      sync(partial);
      replace(partial, target);
      return result;
    } catch (FileSystemException failed) {
      if (partial.toString().equals(failed.getFile()) && Files.notExists(partial)) {
        // The file aside could not be made (a read-only file system, a directory this user may
        // not write): said of the partial file, the error named a file the user never gave.
        throw new FileSystemException(target.toString(), null, "cannot create files in " + dir
            + ": " + FileErrorReason.of(failed));
      }
      Files.deleteIfExists(partial);
      throw failed;
    } catch (Throwable failed) {
      Files.deleteIfExists(partial);
      throw failed;
    }
  }

  /**
   * Refuses a {@code target} whose directory does not exist, naming the target: else the
   * error would name the file written aside, which the user never asked for.
   */
  static void requireDirectory(Path target) throws NoSuchFileException {
    Path dir = target.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new NoSuchFileException(target.toString(), null, "its directory " + dir
          + " does not exist" + FileErrorReason.unexpandedTilde(target.toString()));
    }
  }

  /**
   * Removes {@code path}: a file, or a directory with everything under it, the deepest first
   * (a symbolic link itself, never what it points to). What is gone meanwhile is no error.
   */
  static void deleteTree(Path path) throws IOException {
    if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      Files.deleteIfExists(path);
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Flushes {@code file}'s content to the device. */
  static void sync(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  /** Renames {@code from} to {@code to} in one step, replacing a file there, and syncs. */
  static void replace(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Path dir = to.toAbsolutePath().getParent();
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
