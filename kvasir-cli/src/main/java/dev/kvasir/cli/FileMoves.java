package dev.kvasir.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Files written aside and renamed into place once complete, so that a command that fails or is
 * killed never leaves a partial file under the name a user reads (docs/backup.md §3, §7). A
 * rename within a directory is atomic, and syncing the directory makes it survive a crash.
 */
final class FileMoves {
  private FileMoves() {}

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
