package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.base.FileErrorReason;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EOFError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code kvasir shell}: the commands interactively, on one open database. */
@Command(name = "shell", mixinStandardHelpOptions = true,
    description = {"An interactive prompt for the other commands on one open database, with"
        + " history (Up/Down, Ctrl-R) and Tab completion of commands and options.",
        "Arguments are quoted as in a POSIX shell: '[\"users\", \"alice\"]'; an open quote"
            + " goes on on the next line. A line that starts with # is a comment.",
        "Ctrl-C stops a running watch or listen; Ctrl-D or 'exit' leaves ('quit', sqlite3's"
            + " '.quit' and psql's '\\q' too)."},
    footer = {"", "Example:", "  kvasir shell --db app.sqlite3",
        "  kvasir> set '[\"users\", \"alice\"]' '{\"age\": 30}'",
        "  kvasir> list --prefix [\"users\"]"})
final class ShellCommand implements Callable<Integer> {
  @Mixin DatabaseOption db;
  @Spec CommandSpec spec;

  /** Words that leave the shell: its own, and those of sqlite3 and psql, which users type. */
  static final Set<String> LEAVE = Set.of("exit", "quit", ".exit", ".quit", "\\q");
  /** Commands that do not run inside the shell: they run from the terminal. */
  static final Set<String> OUTSIDE = Set.of("shell", "serve");

  @Option(names = "--history", paramLabel = "FILE",
      defaultValue = "${sys:user.home}/.kvasir_history",
      description = "Where the command history of interactive sessions is kept (a script's"
          + " lines are not). Default: ${DEFAULT-VALUE}")
  Path history;

  @Override
  public Integer call() throws Exception {
    // UTF-8 whatever the locale, as the other commands' output (docs/operations.md §2), for
    // each stream: JLine takes a stream's encoding from Java's stdin.encoding (and stdout's,
    // stderr's) before the terminal's, and Java 25 sets those from the locale, so a script
    // piped in the C locale was read as ASCII there. Input that is not a terminal (a script
    // piped in) reads as a dumb terminal without JLine's warning about it.
    boolean interactive = Consoles.interactive();
    try (Terminal terminal = TerminalBuilder.builder().name("kvasir").system(true).dumb(true)
        .encoding(StandardCharsets.UTF_8).stdinEncoding(StandardCharsets.UTF_8)
        .stdoutEncoding(StandardCharsets.UTF_8).stderrEncoding(StandardCharsets.UTF_8).build();
        Kv kv = db.open(true)) {
      // A script's errors go to standard error, as sqlite3's and psql's do, so that its output
      // holds only the answers; on a terminal, both are the screen. A script's answers go to
      // the command's own standard output, which tells a full disk from a closed pipe
      // (CheckedOutput); the terminal's writer cannot.
      PrintWriter out = interactive ? terminal.writer() : spec.commandLine().getOut();
      PrintWriter errors = interactive ? terminal.writer() : spec.commandLine().getErr();
      return run(terminal, kv, db, history, interactive, out, errors);
    }
  }

  /**
   * The read-run loop on {@code terminal}; separate so tests can give a terminal of theirs.
   * Without {@code interactive} (commands piped in, as to {@code sqlite3}), neither the banner
   * nor the prompt is printed, so that the output holds only the commands' own, and the status
   * is that of the first command that failed (0 if none); every command is run all the same.
   * Errors go to {@code err}. Once nobody reads the output (a pipe closed), it stops with
   * {@link Kvasir#PIPE_CLOSED}, running no further command. Answers go to {@code out}.
   */
  static int run(Terminal terminal, Kv kv, DatabaseOption db, Path history,
      boolean interactive, PrintWriter out, PrintWriter err) {
    Kvasir.Session session = new Kvasir.Session(kv, db);
    CommandLine template = Kvasir.commandLine(new Kvasir(session), terminal.writer(),
        terminal.writer());
    ShellWords parser = new ShellWords();
    LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("kvasir")
        .parser(parser).completer(new Completion(template));
    Path kept = historyFile(history, interactive, err);
    if (kept != null) {
      builder.variable(LineReader.HISTORY_FILE, kept);
    }
    LineReader reader = builder.build();
    if (interactive) {
      out.println("Kvasir shell on " + db.engine().describe(db.location())
          + ". 'help' lists commands, 'exit' leaves.");
    }
    String prompt = interactive ? "kvasir> " : "";
    int firstFailure = 0; // a script's status, as sqlite3's: it goes on after a failure
    terminal.handle(Terminal.Signal.INT, signal -> Kvasir.interrupt());
    boolean lastLine = false;
    while (!lastLine) {
      ParsedLine parsed;
      try {
        reader.readLine(prompt);
        parsed = reader.getParsedLine();
      } catch (UserInterruptException e) {
        continue; // Ctrl-C at the prompt clears the line
      } catch (EndOfFileException end) {
        try {
          parsed = unfinished(end, parser);
        } catch (EOFError unclosed) {
          err.println("error: the input ended inside a quoted argument, so this command did"
              + " not run: " + end.getPartialLine().strip());
          return interactive ? 0 : firstFailure == 0 ? Kvasir.USAGE : firstFailure;
        }
        if (parsed == null) {
          break;
        }
        lastLine = true;
      }
      List<String> words = parsed.words().stream().filter(w -> !w.isEmpty()).toList();
      if (words.isEmpty()) {
        continue;
      }
      String command = words.get(0);
      if (LEAVE.contains(command)) {
        break;
      }
      if (command.equals("help") && words.size() == 1) {
        out.print(help(template));
        continue;
      }
      if (OUTSIDE.contains(command)) {
        err.println("error: '" + command + "' does not run inside the shell; run 'kvasir "
            + command + "' from your terminal");
        continue;
      }
      // A fresh command line per input, so no option leaks into the next one.
      String[] args = words.toArray(String[]::new);
      int status = Kvasir.commandLineFor(args, new Kvasir(session), out, err).execute(args);
      if (out.checkError()) { // flushes too
        return Kvasir.PIPE_CLOSED;
      }
      if (status != 0 && firstFailure == 0) {
        firstFailure = status;
      }
    }
    return interactive ? 0 : firstFailure;
  }

  /**
   * What {@code help} prints in the shell: the commands that run in it, and how to leave. The
   * help of {@code kvasir} itself listed {@code serve} and {@code shell}, which do not, and
   * said nothing of leaving.
   */
  static String help(CommandLine cli) {
    CommandLine.Help top = new CommandLine.Help(cli.getCommandSpec(),
        cli.getColorScheme());
    Map<String, CommandLine.Help> runnable = new LinkedHashMap<>(top.subcommands());
    runnable.keySet().removeAll(OUTSIDE);
    return "Commands on this database ('help COMMAND' shows one's options):\n"
        + top.commandList(runnable)
        + "Leave with 'exit', 'quit', '.quit', '\\q' or Ctrl-D.\n"
        + "'kvasir serve' and 'kvasir shell' run from your terminal, not in here.\n";
  }

  /**
   * The words of a script's last line when it has no newline, which JLine hands over only with
   * the end of input (sqlite3 runs such a line; it was dropped), or null when there is none.
   *
   * @throws EOFError if the input ended inside a quote
   */
  private static ParsedLine unfinished(EndOfFileException end, ShellWords parser) {
    String partial = end.getPartialLine();
    return partial == null || partial.isBlank() ? null
        : parser.parse(partial, partial.length(), Parser.ParseContext.ACCEPT_LINE);
  }

  /**
   * Where the history is kept: {@code file}, if it can be written; else null, after a one-line
   * warning, and the history lasts the session. JLine logged a stack trace of thirty lines after
   * every command where it could not save (a service user's or a container's read-only home),
   * and a directory there ended the shell before its first command. A script's lines are not
   * kept at all: they are not what the user typed, and neither sqlite3 nor psql keeps them.
   */
  static Path historyFile(Path file, boolean interactive, PrintWriter err) {
    if (!interactive) {
      return null;
    }
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      try (OutputStream probe = Files.newOutputStream(file, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND)) {
        return file;
      }
    } catch (IOException e) {
      err.println("warning: the command history is not kept: cannot write " + file + ": "
          + FileErrorReason.of(e) + " (--history FILE keeps it elsewhere)");
      return null;
    }
  }

  /** Completes command names, then the options of the command being typed. */
  record Completion(CommandLine cli) implements Completer {
    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
      if (line.wordIndex() == 0) {
        cli.getSubcommands().keySet().stream().filter(name -> !OUTSIDE.contains(name))
            .forEach(name -> candidates.add(new Candidate(name)));
        candidates.add(new Candidate("exit"));
        return;
      }
      CommandLine sub = cli.getSubcommands().get(line.words().get(0));
      if (sub != null) {
        sub.getCommandSpec().options().forEach(o -> candidates.add(new Candidate(o.longestName())));
      }
    }
  }
}
