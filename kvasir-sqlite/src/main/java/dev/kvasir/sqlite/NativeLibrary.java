package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * sqlite-jdbc's native library, which the driver unpacks from its jar into a temporary
 * directory when the process opens its first connection (docs/sqlite.md §8). Where that
 * directory cannot be written (a container run with a read-only root file system, {@code
 * docker run --read-only}), the driver logged three stack traces of some thirty lines each and
 * the engine failed with "Error opening connection"; it now fails first, saying what to do,
 * unless the library is installed on {@code java.library.path}, which is then loaded.
 */
final class NativeLibrary {
  /** The file the driver looks for on {@code java.library.path} when it cannot unpack its own. */
  static final String FILE_NAME = System.mapLibraryName("sqlitejdbc");

  /** Whether a directory was found writable once: the library is unpacked once per process. */
  private static volatile boolean checked;

  private NativeLibrary() {}

  /** Refuses to go on where the driver could neither unpack its library nor find one installed. */
  static void requireUnpackable() {
    if (checked || System.getProperty("org.sqlite.lib.path") != null) {
      return; // unpacked already, or loaded from where the property says
    }
    String property = System.getProperty("org.sqlite.tmpdir") != null ? "org.sqlite.tmpdir"
        : "java.io.tmpdir";
    Path dir = Path.of(System.getProperty(property));
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      Path installed = installedIn(System.getProperty("java.library.path", ""));
      if (installed == null) {
        throw new KvException(refusal(dir, property));
      }
      // The driver falls back to it too, but only after failing to unpack its own, which it
      // logs as an error with a stack trace; these two properties make it load this one first.
      System.setProperty("org.sqlite.lib.path", installed.toString());
      System.setProperty("org.sqlite.lib.name", FILE_NAME);
    }
    checked = true;
  }

  /** The directory of {@code libraryPath} (java.library.path) that holds the library, or null. */
  static Path installedIn(String libraryPath) {
    return Arrays.stream(libraryPath.split(File.pathSeparator))
        .filter(entry -> !entry.isEmpty())
        .map(Path::of)
        .filter(entry -> Files.isRegularFile(entry.resolve(FILE_NAME)))
        .findFirst().orElse(null);
  }

  /** Why the library cannot be unpacked into {@code dir}, named by the system property. */
  static String refusal(Path dir, String property) {
    return "SQLite's native library cannot be unpacked into " + dir + " (" + property + "), which "
        + (Files.isDirectory(dir) ? "this user may not write" : "is not a directory")
        + "; name a writable directory with the system property org.sqlite.tmpdir (for the"
        + " kvasir command, JAVA_OPTS=-Dorg.sqlite.tmpdir=DIR; in a container with a read-only"
        + " root file system, mount a tmpfs at /tmp), or install the library as " + FILE_NAME
        + " in a directory of java.library.path";
  }
}
