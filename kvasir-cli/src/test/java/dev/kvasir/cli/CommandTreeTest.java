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
    assertThat(commandLine(new StringWriter(), err).execute("lst", "--db", "x.sqlite3"))
        .isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).startsWith("error: 'lst' is not a command of kvasir\n")
        .contains("Did you mean list").contains("Run 'kvasir help'");
    err.getBuffer().setLength(0);
    commandLine(new StringWriter(), err).execute("dag", "lss");
    assertThat(err.toString()).startsWith("error: 'lss' is not a command of kvasir dag\n")
        .contains("Did you mean ls");
    err.getBuffer().setLength(0);
    commandLine(new StringWriter(), err).execute("list", "--prefx", "[\"a\"]");
    assertThat(err.toString()).startsWith("error: Unknown options: '--prefx'")
        .contains("Did you mean --prefix");
  }

  private static CommandLine commandLine(StringWriter out, StringWriter err) {
    return Kvasir.commandLine(new Kvasir(), new PrintWriter(out, true),
        new PrintWriter(err, true));
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
