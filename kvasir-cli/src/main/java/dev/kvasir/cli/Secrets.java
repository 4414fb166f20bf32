package dev.kvasir.cli;

import dev.kvasir.base.FileErrorReason;
import dev.kvasir.spi.EngineProvider;
import java.io.IOException;
import java.nio.file.Path;

/** Secrets read from files, so that neither {@code ps} nor a shell's history shows them. */
final class Secrets {
  private Secrets() {}

  /**
   * The first line of a secret file, without its line break.
   *
   * @throws IllegalArgumentException naming the file and {@code what} it should hold
   */
  static String firstLine(Path file, String what) {
    try {
      String text = TextFiles.read(file);
      int end = text.indexOf('\n');
      String line = end < 0 ? text : text.substring(0, end);
      return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the " + what + " from " + file + ": "
          + FileErrorReason.of(e), e);
    }
  }

  /**
   * The database password from the first line of {@code file}, for an engine that logs in with
   * one.
   *
   * @throws IllegalArgumentException for an engine that takes no password (a SQLite file, say),
   *     rather than let that engine call it an unknown option
   */
  static String databasePassword(Path file, EngineProvider engine, String location) {
    return databasePassword(file, engine, location,
        "--db-password-file or KVASIR_DB_PASSWORD_FILE");
  }

  /** As above, for the database that {@code option} gives the password of. */
  static String databasePassword(Path file, EngineProvider engine, String location,
      String option) {
    if (!engine.takesPassword()) {
      throw new IllegalArgumentException("a database password file (" + option + ") is for a"
          + " database that logs in with a password, such as postgresql://; the "
          + engine.displayName() + " database " + engine.describe(location) + " takes none");
    }
    return firstLine(file, "database password");
  }
}
