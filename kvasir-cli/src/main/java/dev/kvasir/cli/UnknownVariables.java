package dev.kvasir.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The {@code KVASIR_*} environment variables that no command reads. A misspelt one ({@code
 * KVASIR_READ_ONLY} as {@code KVASIR_READONLY}) leaves its option at the default without a
 * word, where the same slip in a {@code --config} file stops the start; {@code serve} warns of
 * them (docs/operations.md §2). Only a warning: a variable for another program may share the
 * prefix.
 */
final class UnknownVariables {
  private static final String PREFIX = "KVASIR_";
  /** A variable in picocli's syntax for a default value: {@code ${env:NAME:-fallback}}. */
  private static final Pattern FROM_ENVIRONMENT = Pattern.compile("\\$\\{env:(\\w+)");
  /** The variables read with {@code System.getenv}, each by its option's code. */
  private static final Set<String> READ_BY_HAND = Set.of(DatabaseOption.ACCESS_TOKEN_VARIABLE,
      DatabaseOption.PASSWORD_FILE_VARIABLE, DatabaseOption.CA_FILE_VARIABLE,
      Logging.LEVEL_VARIABLE, Logging.FORMAT_VARIABLE);

  private UnknownVariables() {}

  /**
   * One warning for each such variable of {@code environment}, naming a near option's. The
   * variables of {@code running} (serve's) are looked up first; only a variable none of them
   * reads has every other command's model built, half a second at start otherwise spent on
   * every serve, although the usual environment holds serve's variables alone.
   */
  static List<String> warnings(CommandSpec running, Map<String, String> environment) {
    Set<String> known = new TreeSet<>(READ_BY_HAND);
    collect(running, known);
    List<String> unread = environment.keySet().stream()
        .filter(name -> name.startsWith(PREFIX) && !known.contains(name)).sorted().toList();
    if (unread.isEmpty()) {
      return List.of();
    }
    // Every command's options, not only those of the command line being run: that has only the
    // command its arguments name, and a server's environment may carry a client's variables
    // (KVASIR_CA_FILE, KVASIR_TIMEOUT) too.
    PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
    collect(Kvasir.commandLine(new Kvasir(), nowhere, nowhere).getCommandSpec(), known);
    List<String> warnings = new ArrayList<>();
    for (String name : unread) {
      if (!known.contains(name)) {
        String near = nearest(name, known);
        warnings.add(name + " is set but no kvasir command reads it"
            + (near == null ? "" : "; did you mean " + near + "?"));
      }
    }
    return warnings;
  }

  /**
   * The variables the commands read: those their options' default values name ({@code
   * ${env:KVASIR_PORT:-4512}}), of {@code command} and its subcommands. An option's name alone
   * is not enough: {@code list --limit} reads no {@code KVASIR_LIMIT}.
   */
  private static void collect(CommandSpec command, Set<String> into) {
    for (OptionSpec option : command.options()) {
      Option declared = option.userObject() instanceof AnnotatedElement element
          ? element.getAnnotation(Option.class) : null;
      if (declared != null) {
        Matcher m = FROM_ENVIRONMENT.matcher(declared.defaultValue());
        while (m.find()) {
          into.add(m.group(1));
        }
      }
    }
    command.subcommands().values().forEach(sub -> collect(sub.getCommandSpec(), into));
  }

  /** The known name within two edits of {@code name} (a letter left out, added or swapped). */
  private static String nearest(String name, Set<String> known) {
    String best = null;
    int bestDistance = 3;
    for (String candidate : known) {
      int d = distance(name, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Levenshtein's edit distance, a swap of neighbours counting as one (Damerau). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
