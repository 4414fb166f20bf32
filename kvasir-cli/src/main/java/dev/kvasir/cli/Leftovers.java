package dev.kvasir.cli;

import dev.kvasir.base.FileErrorReason;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files a command writes beside its target under a name that carries its process id
 * ({@code backup.ndjson.partial-4711}, {@code app.sqlite3.restoring-4711}), and the removal of
 * those that killed runs left (docs/backup.md §3, §7). A leftover can be as large as the
 * database; without this, each killed nightly run added one that only a person would delete.
 */
final class Leftovers {
  private final Path target;
  private final String tag;

  /**
   * The leftovers of {@code target}: files or directories beside it named like it with
   * {@code .TAG-PID} added, and SQLite's {@code -wal}/{@code -shm} files of those.
   */
  Leftovers(Path target, String tag) {
    this.target = target; // as given, so that messages name files as the user does
    this.tag = tag;
  }

  /** Where this process writes: the target's name with {@code .TAG-PID} added. */
  Path ours() {
    return target.resolveSibling(target.getFileName() + "." + tag + "-"
        + ProcessHandle.current().pid());
  }

  /**
   * Removes every leftover whose process no longer runs, saying so on {@code err}. One whose
   * process id is alive (another run writing now, or a process that reused the id) stays.
   * Failures to remove are reported and do not stop the command.
   */
  void removeStale(PrintWriter err) {
    Path dir = target.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      return;
    }
    Pattern name = Pattern.compile(Pattern.quote(target.getFileName() + "." + tag + "-")
        + "([0-9]{1,19})(-wal|-shm)?");
    try (DirectoryStream<Path> siblings = Files.newDirectoryStream(dir)) {
      for (Path sibling : siblings) {
        Matcher m = name.matcher(sibling.getFileName().toString());
        if (!m.matches() || running(m.group(1))) {
          continue;
        }
        Path named = target.resolveSibling(sibling.getFileName());
        try {
          FileMoves.deleteTree(sibling);
          if (m.group(2) == null) {
            err.println("removed " + named + ", left by an earlier run that was stopped"
                + " before it finished (process " + m.group(1) + " is gone)");
          }
        } catch (IOException e) {
          err.println("warning: cannot remove " + named + ", left by an earlier run: "
              + FileErrorReason.of(e));
        }
      }
    } catch (IOException e) {
      err.println("warning: cannot look for what earlier runs left beside " + target + ": "
          + FileErrorReason.of(e));
    }
  }

  private static boolean running(String pid) {
    try {
      return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) { // more digits than a long holds: no such process
      return false;
    }
  }
}
