package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
      for (String text : texts) {
        for (String word : text.replace("%n", " ").split("\\s+")) {
          if (!word.isEmpty() && !(" " + usage.replace('\n', ' ') + " ").contains(" " + word + " ")) {
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
      usage.lines().filter(line -> line.length() > 80 && !line.startsWith("  "))
          .forEach(line -> broken.add(name + ": longer than 80 columns: " + line));
    }
    assertThat(broken).isEmpty();
    // The synopsis is cut between options only.
    assertThat(commandFor("set").getSubcommands().get("set").getUsageMessage(Help.Ansi.OFF))
        .contains(" [--db-option=NAME=VALUE[,NAME=VALUE...]]... KEY VALUE");
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
