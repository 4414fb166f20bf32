package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;

/** {@code kvasir shell} on JLine's dumb terminal fed with typed lines. */
class ShellTest {
  @TempDir Path dir;
  /** What a script's commands wrote to standard error. */
  private final StringWriter errors = new StringWriter();

  /** The --db of a shell on an in-memory database. */
  private static DatabaseOption inMemory() {
    DatabaseOption db = new DatabaseOption();
    db.location = ":memory:";
    return db;
  }

  private String session(Kv kv, DatabaseOption db, String typed) throws Exception {
    return session(kv, db, typed, true);
  }

  private String session(Kv kv, DatabaseOption db, String typed, boolean interactive)
      throws Exception {
    return session(kv, db, typed, interactive, 0);
  }

  private String session(Kv kv, DatabaseOption db, String typed, boolean interactive,
      int status) throws Exception {
    ByteArrayOutputStream screen = new ByteArrayOutputStream();
    try (DumbTerminal terminal = new DumbTerminal("test", "dumb",
        new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)), screen,
        StandardCharsets.UTF_8)) {
      assertThat(ShellCommand.run(terminal, kv, db, dir.resolve("history"), interactive,
          terminal.writer(), interactive ? terminal.writer() : new PrintWriter(errors, true)))
          .isEqualTo(status);
    }
    return screen.toString(StandardCharsets.UTF_8);
  }

  @Test
  void commandsPipedIn_printOnlyTheirOutput() throws Exception {
    // As sqlite3 with a script on its input: no banner, no prompts between the answers.
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      String screen = session(kv, db, String.join("\n",
          "set [\"k\"] '\"ü\"'", "get [\"k\"]", "count", ""), false);
      assertThat(screen).matches("[0-9a-f]{20}\n\"ü\"\n1\n");
      // A failure does not stop the script; its status is the script's, as with sqlite3.
      screen = session(kv, db, String.join("\n", "get [\"missing\"]", "get [oops]",
          "set [\"after\"] 1", ""), false, Kvasir.FAILED);
      // The errors on standard error, as sqlite3's: the output holds only the answers.
      assertThat(errors.toString()).contains("no entry at [\"missing\"]")
          .contains("invalid key");
      assertThat(screen).matches("[0-9a-f]{20}\n");
      assertThat(kv.get(KvKey.of("after")).exists()).isTrue();
    }
  }

  @Test
  void theExamplesOfItsHelp_run_andCommentLinesAreSkipped() throws Exception {
    // The help's example typed an unquoted key with a space, which the shell splits in two.
    List<String> typed = new ArrayList<>(List.of("# a script's comment", "  # indented"));
    for (String line : ShellCommand.class.getAnnotation(Command.class).footer()) {
      if (line.startsWith("  kvasir> ")) {
        typed.add(line.substring("  kvasir> ".length()));
      }
    }
    assertThat(typed).hasSizeGreaterThan(2);
    typed.add("");
    try (Kv kv = Kv.open(":memory:")) {
      String screen = session(kv, inMemory(), String.join("\n", typed), false);
      assertThat(errors.toString()).isEmpty();
      assertThat(screen).contains("[\"users\", \"alice\"]  {\"age\":30}");
    }
  }

  @Test
  void everyCommandThatPrintsAnAnswer_printsItAsJsonWithJson() throws Exception {
    // A script reads these with jq; before, set/delete/sum/count/enqueue had no --json.
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      String commit = "\\{\"ok\":true,\"versionstamp\":\"[0-9a-f]{20}\"}\n";
      String screen = session(kv, db, String.join("\n",
          "set [\"k\"] 1 --json", "sum [\"n\"] 5 --json", "count --json",
          "enqueue '\"job\"' --json", "delete [\"k\"] --json", "delete [\"k\"]", ""), false);
      assertThat(screen).matches(commit
          + "\\{\"key\":\\[\"n\"],\"value\":\\{\"\\$u64\":\"5\"},\"versionstamp\":\"[0-9a-f]{20}\"}\n"
          + "\\{\"count\":2}\n" + commit + commit);
    }
  }

  @Test
  void runsCommandsOnTheOpenDatabase_withShellQuoting_andKeepsHistory() throws Exception {
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      String screen = session(kv, db, String.join("\n",
          "set '[\"users\", \"alice\"]' '{\"age\": 30}'",
          "get [\"users\",\"alice\"]",
          "sum [\"n\"] 2",
          "get [nope]",
          "serve",
          "set [\"stdin\"] -",
          "import -",
          "count",
          "exit", ""));
      assertThat(screen).contains("{\"age\":30}").contains("{\"$u64\":\"2\"}")
          .contains("invalid key [nope] at position 2")
          .contains("in the shell, give the value itself")
          .contains("in the shell, import a file; - (standard input) is for 'kvasir import'")
          .contains("'serve' does not run inside the shell");
      assertThat(kv.get(KvKey.of("users", "alice")).exists()).isTrue();
      assertThat(screen).as("count of the two entries").contains("kvasir> 2\n");
    }
    assertThat(Files.readString(dir.resolve("history"))).contains("sum [\"n\"] 2");
  }

  @Test
  void aScriptWhoseOutputIsNoLongerRead_stops() throws Exception {
    // yes 'get ["a"]' | kvasir shell | head -1: it ran every command and exited 0.
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:");
        DumbTerminal terminal = new DumbTerminal("test", "dumb", new ByteArrayInputStream(
            "count\nset [\"after\"] 1\n".getBytes(StandardCharsets.UTF_8)),
            new OutputStream() {
              @Override
              public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
              }
            }, StandardCharsets.UTF_8)) {
      assertThat(ShellCommand.run(terminal, kv, db, dir.resolve("history"), false,
          terminal.writer(), new PrintWriter(errors, true))).isEqualTo(Kvasir.PIPE_CLOSED);
      assertThat(kv.get(KvKey.of("after")).exists()).as("no command after it").isFalse();
    }
  }

  @Test
  void endOfInput_leavesTheShell() throws Exception {
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      assertThat(session(kv, db, "set [\"a\"] 1\n")).contains("Kvasir shell on :memory:");
      assertThat(kv.get(KvKey.of("a")).value()).isEqualTo(1.0);
    }
  }

  @Test
  void aLastLineWithoutItsNewline_runs() throws Exception {
    // printf 'set ["a"] 1' | kvasir shell stored nothing and exited 0; sqlite3 runs that line.
    try (Kv kv = Kv.open(":memory:")) {
      assertThat(session(kv, inMemory(), "set [\"a\"] 1\nset [\"b\"] 2", false))
          .matches("([0-9a-f]{20}\n){2}");
      assertThat(kv.get(KvKey.of("b")).value()).isEqualTo(2.0);
    }
  }

  @Test
  void anOpenQuote_goesOnOnTheNextLine_andIsAnErrorAtTheEndOfInput() throws Exception {
    // JLine took a line with an open quote as it stood, the quote dropped: '42 stored 42.
    try (Kv kv = Kv.open(":memory:")) {
      session(kv, inMemory(), "set [\"a\"] '{\"n\":\n  1}'\n", false);
      assertThat(kv.get(KvKey.of("a")).value()).isEqualTo(java.util.Map.of("n", 1.0));
      String screen = session(kv, inMemory(), "set [\"b\"] 1\nset [\"c\"] '42\n", false,
          Kvasir.USAGE);
      assertThat(screen).matches("[0-9a-f]{20}\n");
      assertThat(errors.toString()).isEqualTo("error: the input ended inside a quoted argument,"
          + " so this command did not run: set [\"c\"] '42\n");
      assertThat(kv.get(KvKey.of("c")).exists()).isFalse();
    }
  }

  @Test
  void aPrefixWithoutItsOption_selectsAsTheOptionDoes() throws Exception {
    // 'list ["users"]', what people type first, was "Unmatched argument at index 1".
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      kv.set(KvKey.of("users", "a"), 1);
      kv.set(KvKey.of("usersx"), 2);
      String screen = session(kv, db, String.join("\n", "count [\"users\"]",
          "list [\"users\"] --json", "count [\"users\"] --prefix [\"users\"]", ""), false);
      assertThat(screen).matches("1\n\\{\"key\":\\[\"users\",\"a\"],\"value\":1,.*}\n1\n");
      session(kv, db, "count [\"users\"] --prefix [\"x\"]\n", false, Kvasir.USAGE);
      assertThat(errors.toString()).contains("two prefixes");
    }
  }

  @Test
  void aHistoryThatCannotBeWritten_isWarnedOfOnce_andTheCommandsRun() throws Exception {
    // A directory there ended the shell before its first command ("java.io.IOException: Is a
    // directory"); an unwritable file logged a stack trace after every command.
    DatabaseOption db = inMemory();
    Path unwritable = Files.createDirectory(dir.resolve("a-directory"));
    try (Kv kv = Kv.open(":memory:")) {
      ByteArrayOutputStream screen = new ByteArrayOutputStream();
      try (DumbTerminal terminal = new DumbTerminal("test", "dumb", new ByteArrayInputStream(
          "set [\"a\"] 1\nget [\"a\"]\n".getBytes(StandardCharsets.UTF_8)), screen,
          StandardCharsets.UTF_8)) {
        assertThat(ShellCommand.run(terminal, kv, db, unwritable, true, terminal.writer(),
            terminal.writer())).isZero();
      }
      assertThat(screen.toString(StandardCharsets.UTF_8))
          .containsOnlyOnce("warning: the command history is not kept: cannot write "
              + unwritable + ": Is a directory")
          .contains("kvasir> 1\n");
      assertThat(kv.get(KvKey.of("a")).exists()).isTrue();
    }
  }

  @Test
  void aScriptsLines_areNotKeptInTheHistory() throws Exception {
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      session(kv, db, "set [\"s\"] 1\n", false);
    }
    assertThat(dir.resolve("history")).doesNotExist();
  }

  @Test
  void theWordsThatLeaveSqlite3AndPsql_leaveItToo() throws Exception {
    // '.quit' was "not a command of kvasir. Did you mean enqueue?", and the script went on.
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      for (String leave : List.of("exit", "quit", ".exit", ".quit", "\\q")) {
        session(kv, db, leave + "\nset [\"after\"] 1\n", false);
        assertThat(kv.get(KvKey.of("after")).exists()).as(leave).isFalse();
      }
    }
  }

  @Test
  void help_listsTheCommandsThatRunInTheShell_andHowToLeave() throws Exception {
    // It printed kvasir's own help: serve and shell among the commands, nothing of leaving.
    DatabaseOption db = inMemory();
    try (Kv kv = Kv.open(":memory:")) {
      String screen = session(kv, db, "help\n", false);
      assertThat(screen).contains("  get ", "  list ", "  backup ", "Leave with 'exit'")
          .doesNotContain("  serve ", "  shell ", "Usage:");
      assertThat(session(kv, db, "help get\n", false)).contains("Usage: kvasir get");
    }
  }

  @Test
  void tabCompletes_commandNames_thenTheCommandsOptions() {
    var completion = new ShellCommand.Completion(Kvasir.commandLine(new Kvasir(),
        new java.io.PrintWriter(System.out), new java.io.PrintWriter(System.err)));
    DefaultParser parser = new DefaultParser();
    List<Candidate> commands = new ArrayList<>();
    completion.complete(null, parser.parse("li", 2), commands);
    assertThat(commands).extracting(Candidate::value).contains("list", "listen", "get", "exit")
        .doesNotContain("serve", "shell");
    List<Candidate> options = new ArrayList<>();
    completion.complete(null, parser.parse("list --", 7), options);
    assertThat(options).extracting(Candidate::value)
        .contains("--prefix", "--limit", "--reverse", "--cursor", "--json", "--db");
  }
}
