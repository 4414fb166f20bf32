package dev.kvasir.cli;

import dev.kvasir.dag.engine.DagLocation;
import dev.kvasir.spi.EngineProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Where {@code kvasir restore} writes (docs/backup.md §3). A SQLite file or a {@code dag:}
 * directory is built beside the target, under its name with {@code .restoring-PID} added, and
 * given the target's name only once it is whole and closed: a restore that is killed leaves
 * that clearly named leftover, never a database at the target that a server would open as a
 * restored one (it would be empty, since the entries are loaded in one transaction after the
 * schema). The next restore to that target removes it. A database elsewhere (PostgreSQL) is restored in place, in one transaction.
 */
final class RestoreTarget {
  private final String location;
  private final @Nullable Path built;
  private final @Nullable Path target;

  private RestoreTarget(String location, @Nullable Path built, @Nullable Path target) {
    this.location = location;
    this.built = built;
    this.target = target;
  }

  /**
   * The target for {@code to}, whose engine is {@code engine}. What killed restores to the same
   * target left beside it is removed first, saying so on {@code err}.
   */
  static RestoreTarget of(EngineProvider engine, String to, PrintWriter err)
      throws NoSuchFileException {
    if (engine.name().equals("sqlite") && !engine.files(to).isEmpty()) {
      Path file = Path.of(to);
      FileMoves.requireDirectory(file);
      Path aside = aside(file, err);
      return new RestoreTarget(aside.toString(), aside, file);
    }
    if (engine.name().equals("dag")) {
      Path dir = DagLocation.directory(to).toAbsolutePath().normalize();
      Path aside = aside(dir, err);
      return new RestoreTarget("dag:" + aside, aside, dir);
    }
    return new RestoreTarget(to, null, null);
  }

  private static Path aside(Path target, PrintWriter err) {
    Leftovers leftovers = new Leftovers(target, "restoring");
    leftovers.removeStale(err);
    return leftovers.ours();
  }

  /** Where to open the engine that the restore writes. */
  String location() {
    return location;
  }

  /**
   * Gives the database built at {@link #location()}, now closed, the target's name, and syncs
   * the directory so that the new name survives a crash.
   */
  void moveIntoPlace() throws IOException {
    if (built == null || target == null) {
      return;
    }
    if (Files.isRegularFile(built)) {
      // Closing SQLite copies its log into the file and removes it; a log still holding
      // frames would not follow the file, and its commits would be lost.
      Path log = withSuffix(built, "-wal");
      if (Files.exists(log) && Files.size(log) > 0) {
        throw new IOException("the restored database " + built + " still has a write-ahead"
            + " log after closing; it is left there, not moved to " + target);
      }
      Files.deleteIfExists(log);
      Files.deleteIfExists(withSuffix(built, "-shm"));
    }
    boolean emptyDirectory = Files.isDirectory(target) && isEmpty(target);
    if (Files.exists(target) && !emptyDirectory) {
      throw new FileAlreadyExistsException(target + " appeared while restoring; the restored"
          + " database is left at " + built);
    }
    if (emptyDirectory) {
      Files.delete(target);
    }
    FileMoves.replace(built, target); // nothing there to replace: checked just above
  }

  /** Removes what a failed restore built; nothing was at the target. */
  void discard() throws IOException {
    if (built == null) {
      return;
    }
    if (Files.isDirectory(built)) {
      FileMoves.deleteTree(built);
      return;
    }
    for (String part : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(withSuffix(built, part));
    }
  }

  /** {@code path} with {@code suffix} added to its file name. */
  private static Path withSuffix(Path path, String suffix) {
    return path.resolveSibling(path.getFileName() + suffix);
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    }
  }
}
