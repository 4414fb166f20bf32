package dev.kvasir.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The hint for a database given as the first argument, as {@code sqlite3 app.db SQL} and {@code
 * psql DBNAME} take it: {@code kvasir get app.db '["a"]'} said only that app.db was not a key,
 * or that the key after it was one argument too many, and {@code kvasir serve app.db} that
 * app.db was not expected.
 */
final class DatabaseFirst {
  /** The endings of database files people name (Deno's examples use .sqlite3 and .db). */
  private static final List<String> FILE_ENDINGS = List.of(".sqlite3", ".sqlite", ".db");
  /** The labels of the first parameter of the commands that take keys. */
  private static final Set<String> KEY_LABELS = Set.of("KEY", "PREFIX");

  private DatabaseFirst() {}

  /**
   * For {@code args} of a command whose first parameter is a key, or that has none ({@code
   * serve}, {@code info}, {@code shell}), when the argument after the command's name names a
   * database: how to give it; else null.
   */
  static String hint(CommandLine line, String[] args) {
    CommandSpec spec = line.getCommandSpec();
    List<PositionalParamSpec> positionals = spec.positionalParameters();
    boolean takesAKeyFirstOrNothing = positionals.isEmpty()
        || KEY_LABELS.contains(positionals.get(0).paramLabel());
    if (args.length < 2 || spec.findOption("--db") == null || !takesAKeyFirstOrNothing
        || !spec.names().contains(args[0]) || !namesADatabase(args[1])) {
      return null;
    }
    return "The database is an option: kvasir " + args[0] + " --db " + args[1]
        + " … (or KVASIR_DB in the environment).";
  }

  /** Whether {@code arg} reads as a database location rather than a mistyped key. */
  static boolean namesADatabase(String arg) {
    if (arg.startsWith("[") || arg.startsWith("-")) {
      return false;
    }
    if (arg.equals(":memory:") || arg.contains("://") || arg.startsWith("dag:")
        || FILE_ENDINGS.stream().anyMatch(arg::endsWith)) {
      return true;
    }
    try {
      return Files.isRegularFile(Path.of(arg));
    } catch (InvalidPathException e) {
      return false;
    }
  }
}
