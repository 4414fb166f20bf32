package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * sqlite-jdbc's native library, which the driver unpacks from its jar into a temporary
 * directory when the process opens its first connection (docs/sqlite.md §8). Where that
 * directory cannot be written (a container run with a read-only root file system, {@code
 * docker run --read-only}), the driver logged three stack traces of some thirty lines each and
 * the engine failed with "Error opening connection"; it now fails first, saying what to do.
 */
final class NativeLibrary {
  /** Whether a directory was found writable once: the library is unpacked once per process. */
  private static volatile boolean checked;

  private NativeLibrary() {}

  /** Refuses to go on where the driver could not unpack its library. */
  static void requireUnpackable() {
    if (checked || System.getProperty("org.sqlite.lib.path") != null) {
      return; // unpacked already, or loaded from where the property says
    }
    String property = System.getProperty("org.sqlite.tmpdir") != null ? "org.sqlite.tmpdir"
        : "java.io.tmpdir";
    Path dir = Path.of(System.getProperty(property));
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      throw new KvException("SQLite's native library cannot be unpacked into " + dir + " ("
          + property + "), which " + (Files.isDirectory(dir) ? "this user may not write"
          : "is not a directory") + "; name a writable directory with the system property"
          + " org.sqlite.tmpdir (for the kvasir command, JAVA_OPTS=-Dorg.sqlite.tmpdir=DIR;"
          + " in a container with a read-only root file system, mount a tmpfs at /tmp)");
    }
    checked = true;
  }
}
