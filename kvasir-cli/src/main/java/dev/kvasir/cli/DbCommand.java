package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A command that works on one database: it opens {@code --db} (or uses the shell's open
 * database), runs, and closes what it opened. Errors are thrown and mapped to exit codes by
 * {@link Kvasir}.
 */
abstract class DbCommand implements Callable<Integer> {
  @Mixin DatabaseOption db;
  @Spec CommandSpec spec;
  @ParentCommand Kvasir root;

  /** Whether the command writes (and may therefore create a missing file). */
  boolean writes() {
    return false;
  }

  abstract int run(Kv kv) throws Exception;

  /**
   * Opens what the command reads besides the database, such as its input file, before the
   * database: a file that is missing or a directory then fails before a missing database is
   * created. Closed after the run; null if there is nothing.
   */
  AutoCloseable openInput() throws Exception {
    return null;
  }

  /**
   * Refuses arguments that picocli lets through, before anything is opened: it does not hold
   * positional parameters to the maximum of their arity, nor parse what only the command
   * understands (a value, a check's versionstamp, a selection). A usage error so found exits 2
   * without creating or opening the database.
   */
  void checkArguments() throws IOException {}

  /**
   * @throws IllegalArgumentException if there are more than {@code max} keys: Deno's limit of
   *     the one read, watch or atomic commit the command makes (docs/limits.md)
   */
  static void atMostKeys(List<KvKey> keys, int max, String command) {
    if (keys.size() > max) {
      throw new IllegalArgumentException(command + " takes up to " + max + " keys, as Deno"
          + " does: got " + keys.size() + "; give the others to a second " + command);
    }
  }

  /**
   * @throws IllegalArgumentException if {@code value}, given, is below 1 ({@code list --limit},
   *     {@code watch} and {@code listen --count}; a count of 0 printed one emission of watch)
   */
  static void positive(String option, Integer value) {
    if (value != null && value <= 0) {
      throw new IllegalArgumentException(option + " must be positive, not " + value);
    }
  }

  @Override
  public final Integer call() throws Exception {
    checkArguments();
    try (AutoCloseable input = openInput()) {
      Kvasir.Session session = root == null ? null : root.session();
      // In the shell, the shell's database, unless this line names its own with --db.
      if (session != null && !spec.commandLine().getParseResult().hasMatchedOption("--db")) {
        db = session.db();
        return run(session.kv());
      }
      try (Kv kv = db.open(writes())) {
        return run(kv);
      }
    }
  }

  /** Whether the command runs in {@code kvasir shell}, on the shell's database. */
  boolean inShell() {
    return root != null && root.session() != null;
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
