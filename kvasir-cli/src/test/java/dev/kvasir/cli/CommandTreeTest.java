package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;

/** What every command of the tree owes its user, nested ones included. */
class CommandTreeTest {
  @Test
  void everyCommand_answersHelp_withItsOwnUsage_andExitStatus0() {
    List<String> without = new ArrayList<>();
    for (CommandLine command : all(commandLine(new StringWriter()))) {
      if (command.getCommandSpec().findOption("--help") == null) {
        without.add(command.getCommandSpec().qualifiedName());
      }
    }
    // 'kvasir dag ls --help' said "Unknown option: '--help'", and the error of a mistyped
    // nested command pointed at that very option.
    assertThat(without).as("commands without --help").isEmpty();

    StringWriter out = new StringWriter();
    int status = commandLine(out).execute("dag", "ls", "--help");
    assertThat(status).isZero();
    assertThat(out.toString()).startsWith("Usage: kvasir dag ls");
  }

  @Test
  void everyHelp_breaksLinesBetweenWords_within80Columns_andPrintsExamplesWhole() {
    List<String> broken = new ArrayList<>();
    for (CommandLine command : all(commandLine(new StringWriter()))) {
      CommandSpec spec = command.getCommandSpec();
      String usage = command.getUsageMessage(Help.Ansi.OFF);
      String name = spec.qualifiedName();
      // Every word of the descriptions is printed whole: picocli's own wrapping printed
      // './kvasir.' at the end of a line and 'sqlite3' at the start of the next.
      List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
      spec.args().forEach(arg -> texts.addAll(List.of(arg.description())));
      String words = " " + usage.replace('\n', ' ') + " ";
      for (String text : texts) {
        for (String word : text.replace("%n", " ").split("\\s+")) {
          if (!word.isEmpty() && !words.contains(" " + word + " ")) {
            broken.add(name + ": " + word);
          }
        }
      }
      // Examples (footer lines indented by two spaces) are printed as written, to be copied.
      for (String line : spec.usageMessage().footer()) {
        if (line.startsWith("  ") && !usage.contains("\n" + line + "\n")) {
          broken.add(name + ": example " + line);
        }
      }
      List<String> examples = List.of(spec.usageMessage().footer());
      usage.lines().filter(line -> line.length() > 80 && !examples.contains(line))
          .forEach(line -> broken.add(name + ": longer than 80 columns: " + line));
    }
    assertThat(broken).isEmpty();
    // The synopsis is cut between options only.
    assertThat(commandFor("set").getSubcommands().get("set").getUsageMessage(Help.Ansi.OFF))
        .contains(" [--db-option=NAME=VALUE[,NAME=VALUE...]]... KEY VALUE");
  }

  /**
   * picocli names an unlabelled option's value after its field ('--port=<port>'), and prints an
   * option without a description as its name alone ('kvasir dag ls --gt=<gt>').
   */
  @Test
  void everyOption_isDescribed_andNamesTheValueItTakesInCapitals() {
    List<String> undescribed = new ArrayList<>();
    for (CommandLine command : all(commandLine(new StringWriter()))) {
      for (var option : command.getCommandSpec().options()) {
        String name = command.getCommandSpec().qualifiedName() + " " + option.longestName();
        if (option.arity().max() > 0 && option.paramLabel().startsWith("<")) {
          undescribed.add(name + "=" + option.paramLabel());
        }
        if (option.description().length == 0) {
          undescribed.add(name + " without a description");
        }
      }
    }
    assertThat(undescribed).isEmpty();
  }

  @Test
  void everyExampleOfTheHelp_parses() {
    List<String> refused = new ArrayList<>();
    int parsed = 0;
    for (CommandLine command : all(commandLine(new StringWriter()))) {
      String examples = String.join("\n", command.getCommandSpec().usageMessage().footer())
          .replace(" \\\n", " ");
      for (String line : examples.lines().filter(l -> l.startsWith("  ")).toList()) {
        parsed += parseEach(line, "", refused);
      }
    }
    assertThat(refused).isEmpty();
    assertThat(parsed).isGreaterThan(60);
  }

  @Test
  void everyCommandLine_inTheCodeBlocksOfTheReadmeAndTheDocs_parses() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(Path.of("..", "README.md")));
    try (Stream<Path> docs = Files.list(Path.of("..", "docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> refused = new ArrayList<>();
    int parsed = 0;
    for (Path page : pages) {
      boolean code = false;
      for (String line : Files.readString(page).replace(" \\\n", " ").lines().toList()) {
        if (line.strip().startsWith("```")) {
          code = !code;
        } else if (code) {
          parsed += parseEach(line, page.getFileName() + ": ", refused);
        }
      }
    }
    assertThat(refused).isEmpty();
    assertThat(parsed).isGreaterThan(20);
  }

  /**
   * Parses each {@code kvasir} command on {@code line}, adding those refused to {@code refused}
   * (after {@code where}, with picocli's reason).
   *
   * @return how many parsed
   */
  private static int parseEach(String line, String where, List<String> refused) {
    int parsed = 0;
    for (List<String> args : kvasirCommands(line)) {
      String[] argv = args.toArray(String[]::new);
      try {
        commandFor(argv).parseArgs(argv);
        parsed++;
      } catch (CommandLine.ParameterException e) {
        refused.add(where + line.strip() + ": " + e.getMessage());
      }
    }
    return parsed;
  }

  /**
   * The arguments of each {@code kvasir} command on an example line, split as a POSIX shell
   * splits them, without a leading assignment, a redirection or a comment.
   */
  private static List<List<String>> kvasirCommands(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = (word == null ? new StringBuilder() : word).append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    List<List<String>> commands = new ArrayList<>();
    List<String> current = null;
    boolean commandStarts = true; // the next word names a program
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("|") || w.equals("&&")) {
        current = null;
        commandStarts = true;
      } else if (w.startsWith("#")) {
        break;
      } else if (w.equals("<") || w.equals(">")) {
        i++; // and the file
      } else if (current != null) {
        current.add(w);
      } else if (commandStarts && (w.equals("kvasir") || w.endsWith("/kvasir"))) {
        current = new ArrayList<>();
        commands.add(current);
      } else if (!w.matches("[A-Z_][A-Z0-9_]*=.*")) {
        commandStarts = false; // another program, or words that are not a command line
      }
    }
    return commands;
  }

  @Test
  void aWordWiderThanTheColumn_isLeftWhole_onALineOfItsOwn() {
    Help.Ansi.Text text = Help.Ansi.OFF.new Text("a https://example.com/a/very/long/path b",
        Help.defaultColorScheme(Help.Ansi.OFF));
    assertThat(WordWrappedHelp.WordWrappedTable.lines(text, 10, 8)).map(Object::toString)
        .containsExactly("a", "https://example.com/a/very/long/path", "b");
  }

  @Test
  void anArgumentStartingWithAt_isTakenAsWritten_notAsAFileOfArguments(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("alice"), "surprise");
    String db = dir.resolve("at.sqlite3").toString();
    String at = "@" + dir.resolve("alice");
    assertThat(run(new StringWriter(), "set", "--db", db, "[\"a\"]", at, "--type", "string"))
        .isZero();
    assertThat(run(new StringWriter(), "set", "--db", db, "[\"b\"]", "@@x", "--type", "string"))
        .isZero();
    try (Kv kv = Kv.open(db)) {
      assertThat(kv.get(KvKey.of("a")).value()).isEqualTo(at);
      assertThat(kv.get(KvKey.of("b")).value()).isEqualTo("@@x");
    }
  }

  @Test
  void aMistypedCommandOrOption_isNamed_withWhatItProbablyMeant() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "lst", "--db", "x.sqlite3")).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).startsWith("error: 'lst' is not a command of kvasir\n")
        .contains("Did you mean list").contains("Run 'kvasir help'");
    err.getBuffer().setLength(0);
    run(err, "set", "--db", "x.sqlite3", "[\"a\"]", "-x", "--type", "string");
    assertThat(err.toString()).startsWith("error: Missing required parameter: 'VALUE'\n")
        .contains("put -- before it to give '-x' as a value");
    err.getBuffer().setLength(0);
    run(err, "version");
    assertThat(err.toString()).startsWith("error: 'version' is not a command of kvasir\n")
        .contains("Did you mean --version?").doesNotContain("serve");
    err.getBuffer().setLength(0);
    run(err, "dag", "lss");
    assertThat(err.toString()).startsWith("error: 'lss' is not a command of kvasir dag\n")
        .contains("Did you mean ls");
    err.getBuffer().setLength(0);
    run(err, "list", "--prefx", "[\"a\"]");
    assertThat(err.toString()).startsWith("error: Unknown option: '--prefx'")
        .contains("Did you mean --prefix");
    err.getBuffer().setLength(0);
    run(err, "list", "--limt", "3"); // 3 is taken for the prefix, and must not hide the option
    assertThat(err.toString()).startsWith("error: Unknown option: '--limt'")
        .contains("Did you mean --limit");
    err.getBuffer().setLength(0);
    // The value after the unknown option is taken for KEY, which it is not: that said only
    // "invalid key x.sqlite3".
    assertThat(run(err, "get", "--path", "x.sqlite3", "[\"a\"]")).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).startsWith("error: Unknown option: '--path'\n")
        .doesNotContain("invalid key");
    err.getBuffer().setLength(0);
    run(err, "delete", "--dbb", "x.sqlite3", "[\"a\"]");
    assertThat(err.toString()).startsWith("error: Unknown option: '--dbb'\n")
        .contains("Did you mean --db");
    err.getBuffer().setLength(0);
    // picocli names an option by its longest name: this said '--path', which nobody typed.
    run(err, "serve", "--db", "a.sqlite3", "--db", "b.sqlite3");
    assertThat(err.toString()).startsWith("error: option '--db' (LOCATION) should be specified"
        + " only once\n");
    err.getBuffer().setLength(0);
    run(err, "serve", "--db", "a.sqlite3", "--path=b.sqlite3");
    assertThat(err.toString()).startsWith("error: options '--db' and '--path' are one option"
        + " (LOCATION): give it once\n");
  }

  /**
   * More keys than the command's one read, watch or commit takes. Before the database is
   * opened: one that does not exist must not hide the mistake.
   */
  @Test
  void getManyWatchOrDelete_ofMoreKeysThanDenoTakes_isAUsageError_thatSaysWhatToDo() {
    for (var limit : Map.of("get-many", 10, "watch", 10, "delete", 1000).entrySet()) {
      String command = limit.getKey();
      StringWriter err = new StringWriter();
      List<String> args = new ArrayList<>(List.of(command, "--db", "no-such.sqlite3"));
      for (int i = 0; i <= limit.getValue(); i++) {
        args.add("[" + i + "]");
      }
      assertThat(run(err, args.toArray(String[]::new))).as(command).isEqualTo(Kvasir.USAGE);
      assertThat(err.toString()).isEqualTo("error: " + command + " takes up to "
          + limit.getValue() + " keys, as Deno does: got " + (limit.getValue() + 1) + "; give"
          + " the others to a second " + command + "\n");
    }
  }

  @Test
  void aDatabaseStartingWithATilde_thatIsNotFound_isSaidToBeUnexpanded() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "get", "--db=~/no-such.sqlite3", "[\"a\"]"))
        .isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(err.toString()).startsWith("error: there is no database at ~/no-such.sqlite3 (~"
        + " is not expanded here");
  }

  /** As psql and git take them: 'kvasir --db app.db get KEY' said only that --db was unknown. */
  @Test
  void optionsBeforeTheCommandsName_areRefused_sayingWhereTheyGo() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "--db", "app.db", "--json", "get", "[\"a\"]")).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).startsWith("error: Unknown options: '--db', 'app.db', '--json'")
        .contains("\nOptions go after the command's name: kvasir get --db app.db --json …\n");
    err.getBuffer().setLength(0);
    run(err, "--bogus");
    assertThat(err.toString()).doesNotContain("Options go after");
  }

  @Test
  void aDatabaseWhereTheFirstKeyGoes_isRefused_sayingItIsAnOption() {
    String hint = "The database is an option: kvasir %s --db app.db … (or KVASIR_DB in the"
        + " environment).";
    for (String[] args : List.of(new String[] {"get", "app.db", "[\"a\"]"},
        new String[] {"set", "app.db", "[\"a\"]", "1"}, new String[] {"list", "app.db"},
        new String[] {"list", "app.db", "[\"a\"]"}, new String[] {"sum", "app.db", "[\"n\"]", "1"},
        new String[] {"delete", "app.db", "[\"a\"]"}, new String[] {"serve", "app.db"},
        new String[] {"info", "app.db"})) {
      StringWriter err = new StringWriter();
      assertThat(run(err, args)).as(String.join(" ", args)).isEqualTo(Kvasir.USAGE);
      assertThat(err.toString()).as(String.join(" ", args))
          .contains("\n" + hint.formatted(args[0]) + "\n");
    }
    // A mistyped key, and a file that is not where a key goes, get no such hint.
    for (String[] args : List.of(new String[] {"get", "users"},
        new String[] {"import", "app.db", "--bogus"})) {
      StringWriter err = new StringWriter();
      assertThat(run(err, args)).isEqualTo(Kvasir.USAGE);
      assertThat(err.toString()).as(String.join(" ", args)).doesNotContain("--db");
    }
  }

  @Test
  void aCommandRuns_withOnlyItsOwnModelBuilt_whileHelpAndStrangeNamesSeeEveryCommand() {
    // The shell builds a command line per input; every command's model cost it 3 ms each.
    assertThat(commandFor("get", "--db", "x.sqlite3", "[\"a\"]").getSubcommands())
        .containsOnlyKeys("get");
    assertThat(commandFor("dag", "ls").getSubcommands()).containsOnlyKeys("dag");
    int every = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())).getSubcommands().size();
    assertThat(every).isGreaterThan(20);
    for (String[] args : List.of(new String[0], new String[] {"help", "get"},
        new String[] {"lst"}, new String[] {"--help"}, new String[] {"-V"})) {
      assertThat(commandFor(args).getSubcommands()).as(String.join(" ", args)).hasSize(every);
    }
    StringWriter out = new StringWriter();
    int status = Kvasir.commandLineFor(new String[] {"help", "get"}, new Kvasir(),
        new PrintWriter(out, true), new PrintWriter(new StringWriter(), true))
        .execute("help", "get");
    assertThat(status).isZero();
    assertThat(out.toString()).startsWith("Usage: kvasir get");
  }

  private static CommandLine commandFor(String... args) {
    return Kvasir.commandLineFor(args, new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()));
  }

  /** As the command runs from {@code main} and the shell: built for its arguments. */
  private static int run(StringWriter err, String... args) {
    return Kvasir.commandLineFor(args, new Kvasir(), new PrintWriter(new StringWriter(), true),
        new PrintWriter(err, true)).execute(args);
  }

  private static CommandLine commandLine(StringWriter out) {
    return Kvasir.commandLine(new Kvasir(), new PrintWriter(out, true),
        new PrintWriter(new StringWriter(), true));
  }

  private static List<CommandLine> all(CommandLine root) {
    List<CommandLine> found = new ArrayList<>(List.of(root));
    for (CommandLine sub : root.getSubcommands().values()) {
      if (!found.contains(sub)) {
        for (CommandLine c : all(sub)) {
          if (!found.contains(c)) {
            found.add(c);
          }
        }
      }
    }
    return found;
  }
}
