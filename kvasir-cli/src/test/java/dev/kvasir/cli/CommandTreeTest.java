package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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
  void aMistypedCommandOrOption_isNamed_withWhatItProbablyMeant() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "lst", "--db", "x.sqlite3")).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).startsWith("error: 'lst' is not a command of kvasir\n")
        .contains("Did you mean list").contains("Run 'kvasir help'");
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
