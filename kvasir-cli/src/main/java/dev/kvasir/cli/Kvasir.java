package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.FileErrorReason;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.connect.RemoteException;
import dev.kvasir.dag.DagException;
import dev.kvasir.dag.ShardLimitException;
import dev.kvasir.dag.cbor.DagCborException;
import dev.kvasir.dag.cid.CidFormatException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code kvasir} command. Exit codes: 0 ok, 1 the operation did not happen (a failed check,
 * a missing entry, a refused value), 2 usage error, 3 database or I/O error.
 */
@Command(name = "kvasir", mixinStandardHelpOptions = true,
    versionProvider = Kvasir.Version.class,
    description = {"Kvasir: Deno KV for the JVM. Look into a database, fix a value, move data,"
        + " or serve it to Deno, Node and Java.",
        "",
        "Keys are JSON-like arrays: '[\"users\", \"alice\"]', '[\"n\", 42, 7n, true, b\"AQI=\"]'"
            + " (string, number, bigint, boolean, base64 bytes).",
        "Values are JSON; other JS types are tagged, e.g. {\"$bigint\":\"7\"},"
            + " {\"$date\":\"2024-01-31T12:00:00Z\"}, {\"$map\":[[\"k\",1]]}."},
    footer = {"", "Exit codes: 0 ok, 1 operation failed (e.g. a check), 2 usage error,"
        + " 3 database or I/O error.", "Run 'kvasir help COMMAND' for a command's options and"
        + " examples."})
public final class Kvasir {
  /**
   * The commands, in the order the help lists them. Added by {@link #commandLine} rather than
   * named in the annotation, so that running one builds the model of that one only.
   */
  private static final List<Class<?>> COMMANDS = List.of(GetCommand.class,
      GetManyCommand.class, SetCommand.class, DeleteCommand.class, ListCommand.class,
      CountCommand.class, U64Command.Sum.class, U64Command.Min.class, U64Command.Max.class,
      WatchCommand.class, EnqueueCommand.class, ListenCommand.class, ExportCommand.class,
      ImportCommand.class, InfoCommand.class, ServeCommand.class, ReadyCommand.class,
      ShellCommand.class, BackupCommand.class, RestoreCommand.class, ReplicateCommand.class,
      DiffCommand.class, DagCommand.class, CommandLine.HelpCommand.class);
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int DATABASE_ERROR = 3;
  /** Standard output was closed by its reader: the status a shell gives a SIGPIPE death. */
  static final int PIPE_CLOSED = 141;
  private static final AtomicReference<Runnable> ON_INTERRUPT = new AtomicReference<>();

  /** The shell's open database, which its commands use instead of opening their own. */
  record Session(Kv kv, DatabaseOption db) {}

  private final Session session;

  Kvasir() {
    this(null);
  }

  Kvasir(Session session) {
    this.session = session;
  }

  Session session() {
    return session;
  }

  public static void main(String[] args) {
    // Straight on the file descriptors, not System.out: a PrintStream hides write errors, and
    // commands must see a closed pipe (checkError) to stop reading and acknowledging.
    CheckedOutput stdout = new CheckedOutput(new FileOutputStream(FileDescriptor.out));
    PrintWriter out = new StandardOutput(stdout);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(
        new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
    String loggingProblem = Logging.environmentProblem();
    if (loggingProblem != null) {
      err.println("error: " + loggingProblem);
      System.exit(USAGE);
    }
    String undecodable = Arguments.undecodable(args, System.getProperty("sun.jnu.encoding"));
    if (undecodable != null) {
      err.println("error: " + undecodable);
      System.exit(USAGE);
    }
    Termination.stopCommandsOnSignals(stdout);
    ReaderWatch.watch(stdout);
    int code = onLargeStack(() -> commandLineFor(args, new Kvasir(), out, err).execute(args));
    out.flush();
    System.exit(withOutputChecked(Termination.exitCode(code), stdout, err));
  }

  /**
   * {@code code}, unless standard output failed for a reason other than a closed pipe: then the
   * output is cut short or missing (a full disk, {@code >&-}), which the commands could not tell
   * from a reader gone away; as {@code cat} does, the reason, and {@link #DATABASE_ERROR}: not
   * {@link #FAILED}, which {@code get} gives for a missing key.
   */
  static int withOutputChecked(int code, CheckedOutput stdout, PrintWriter err) {
    if (!stdout.failedOtherThanByAClosedPipe()) {
      return code;
    }
    err.println("error: cannot write standard output: " + stdout.failure().getMessage());
    err.flush();
    return DATABASE_ERROR;
  }

  /**
   * The stack of the thread commands run on, reserved rather than committed: values nest up to
   * {@link dev.kvasir.value.V8#MAX_DEPTH} levels, and printing one as JSON, or reading it from
   * JSON, recurses several frames per level (docs/values.md §8). The JVM's main thread has
   * 1 MiB, which a Set Deno nested 4 900 deep overflowed.
   */
  static final long STACK_BYTES = 256L << 20;

  /** {@code command}'s exit code, run on a thread with a {@link #STACK_BYTES} stack. */
  private static int onLargeStack(IntSupplier command) {
    int[] code = {FAILED}; // an Error escaped: the JVM's default handler prints it, status 1
    Thread runner = new Thread(null, () -> code[0] = command.getAsInt(), "main", STACK_BYTES);
    runner.start();
    while (true) {
      try {
        runner.join();
        return code[0];
      } catch (InterruptedException e) {
        // Nothing interrupts the JVM's main thread; keep waiting for the command.
      }
    }
  }

  /** The command line with every command, Kvasir's converters and its exit codes. */
  static CommandLine commandLine(Kvasir root, PrintWriter out, PrintWriter err) {
    return commandLine(root, out, err, COMMANDS);
  }

  /**
   * The command line to run {@code args} with: only the command they start with when that is
   * one of Kvasir's (but help, which describes the others), else every command, so that usage,
   * {@code --version} and the suggestions for a mistyped name see them all. Building the
   * model of every command took about a third of a short command's time from a cold JVM, and
   * the shell builds one command line per input (docs/performance.md §6).
   */
  static CommandLine commandLineFor(String[] args, Kvasir root, PrintWriter out,
      PrintWriter err) {
    String name = args.length == 0 ? "" : args[0];
    List<Class<?>> named = COMMANDS.stream()
        .filter(c -> !name.equals("help") && names(c).contains(name)).toList();
    return commandLine(root, out, err, named.isEmpty() ? COMMANDS : named);
  }

  private static List<String> names(Class<?> command) {
    Command annotation = command.getAnnotation(Command.class);
    List<String> names = new ArrayList<>(List.of(annotation.aliases()));
    names.add(annotation.name());
    return names;
  }

  private static CommandLine commandLine(Kvasir root, PrintWriter out, PrintWriter err,
      List<Class<?>> commands) {
    CommandLine cli = new CommandLine(root);
    // Before the settings below, which reach the commands added by then only.
    commands.forEach(cli::addSubcommand);
    cli.registerConverter(KvKey.class, new Keys());
    cli.registerConverter(Duration.class, new Durations());
    cli.setOut(out);
    cli.setErr(err);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    // picocli reads an argument @NAME as the arguments in the file NAME, when there is one: a
    // string value '@alice' was stored as the text of ./alice, and '@@x' as '@x'.
    cli.setExpandAtFiles(false);
    cli.setHelpFactory(WordWrappedHelp::new);
    cli.setParameterExceptionHandler((thrown, args) -> {
      ParameterException e = unknownOptionFirst(thrown, args);
      CommandLine line = e.getCommandLine();
      // Where a command name was due: picocli's "Unmatched arguments from index 0: 'lst', …".
      String unknownCommand = e instanceof UnmatchedArgumentException u
          && !line.getSubcommands().isEmpty() && !u.getUnmatched().isEmpty()
          && !u.getUnmatched().get(0).startsWith("-") ? u.getUnmatched().get(0) : null;
      line.getErr().println("error: " + (unknownCommand != null ? "'" + unknownCommand
          + "' is not a command of " + line.getCommandSpec().qualifiedName()
          : namedAsTyped(e, args)) + fromEnvironment(e, args));
      String dashed = e instanceof MissingParameterException ? unknownDashed(line, args) : null;
      if (dashed != null) {
        // 'kvasir set KEY -x --type string' said only that VALUE was missing.
        line.getErr().println("An argument that starts with '-' is read as an option: put --"
            + " before it to give '" + dashed + "' as a value, and the options before --.");
      }
      String command = unknownCommand == null ? commandAfterOptions(line, e, args) : null;
      if (command != null) {
        // 'kvasir --db app.db get KEY', as psql and git take their options, said only that
        // --db was unknown.
        List<String> options = List.of(args).subList(0, List.of(args).indexOf(command));
        line.getErr().println("Options go after the command's name: kvasir " + command + " "
            + String.join(" ", options) + " …");
      }
      printDatabaseFirst(root, line, args);
      if (unknownCommand != null
          && line.getCommandSpec().findOption("--" + unknownCommand) != null) {
        // 'kvasir version' was taken for a mistyped 'serve'.
        line.getErr().println("Did you mean --" + unknownCommand + "?");
      } else if (e instanceof UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
        // As git does for a mistyped command: the names it was probably meant to be.
        line.getErr().println("Did you mean " + String.join(" or ", u.getSuggestions()) + "?");
      }
      // The help command knows the top level's commands only: 'kvasir help dag get' would
      // describe dag, so a nested command points at its own --help.
      String name = line.getCommandSpec().qualifiedName();
      String help = name.equals("kvasir") ? "kvasir help"
          : line.getParent() != null && line.getParent().getParent() != null ? name + " --help"
          : "kvasir help " + line.getCommandName();
      line.getErr().println("Run '" + help + "' for the options and examples.");
      line.getErr().flush();
      return USAGE;
    });
    cli.setExecutionExceptionHandler((e, line, parsed) -> {
      line.getErr().println("error: " + message(e));
      if (exitCode(e) == USAGE) {
        // 'kvasir list app.db' fails on its prefix only once run (Selection).
        printDatabaseFirst(root, line, parsed.originalArgs().toArray(String[]::new));
      }
      line.getErr().flush();
      return exitCode(e);
    });
    return cli;
  }

  /** Says that the database is an option, where {@code args} give it first (not in the shell). */
  private static void printDatabaseFirst(Kvasir root, CommandLine line, String[] args) {
    String hint = root.session() == null ? DatabaseFirst.hint(line, args) : null;
    if (hint != null) {
      line.getErr().println(hint);
    }
  }

  /**
   * For options given before a command's name at the top level, that name; else null.
   */
  private static String commandAfterOptions(CommandLine line, ParameterException e,
      String[] args) {
    if (line.getParent() != null || !(e instanceof UnmatchedArgumentException u)
        || u.getUnmatched().isEmpty() || !u.getUnmatched().get(0).startsWith("-")) {
      return null;
    }
    return Stream.of(args).filter(arg -> !arg.startsWith("-"))
        .filter(arg -> line.getSubcommands().containsKey(arg)).findFirst().orElse(null);
  }

  /**
   * {@code e}, or the refusal of an unknown option given before it: picocli goes on past an
   * option it does not know, and the value after it is taken for a positional parameter. 'kvasir
   * get --path app.db KEY' said only that app.db was not a key.
   */
  private static ParameterException unknownOptionFirst(ParameterException e, String[] args) {
    if (e instanceof UnmatchedArgumentException || e instanceof MissingParameterException) {
      return e;
    }
    String dashed = unknownDashed(e.getCommandLine(), args);
    return dashed == null ? e : new UnmatchedArgumentException(e.getCommandLine(),
        List.of(dashed));
  }

  /**
   * {@code e}'s message, naming an option given twice as it was typed: picocli names it by its
   * longest name, so 'kvasir serve --db a --db b' said that '--path' was given twice.
   */
  private static String namedAsTyped(ParameterException e, String[] args) {
    if (!(e instanceof OverwrittenOptionException o)
        || !(o.getOverwritten() instanceof OptionSpec option) || option.names().length < 2) {
      return e.getMessage();
    }
    List<String> typed = Stream.of(option.names()).filter(name -> Stream.of(args)
        .anyMatch(arg -> arg.equals(name) || arg.startsWith(name + "="))).toList();
    if (typed.size() > 1) {
      return "options '" + String.join("' and '", typed) + "' are one option ("
          + option.paramLabel() + "): give it once";
    }
    return typed.isEmpty() ? e.getMessage() : e.getMessage().replace("option '"
        + option.longestName() + "'", "option '" + typed.get(0) + "'");
  }

  /** The first argument before {@code --} that looks like an option the command lacks. */
  private static String unknownDashed(CommandLine line, String[] args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        return null;
      }
      if (arg.length() > 1 && arg.startsWith("-") && !arg.matches("-[0-9.].*")
          && line.getCommandSpec().findOption(arg.split("=", 2)[0]) == null) {
        return arg;
      }
    }
    return null;
  }

  /**
   * Where a value that does not convert came from, when it is an environment variable's: picocli
   * names the option ("Invalid value for option '--port': '' is not an int"), and an operator who
   * set only {@code KVASIR_PORT=} in a Compose file looked for it in vain.
   */
  private static String fromEnvironment(ParameterException e, String[] args) {
    if (!(e.getArgSpec() instanceof OptionSpec option) || e.getValue() == null) {
      return "";
    }
    for (String arg : args) {
      for (String name : option.names()) {
        if (arg.equals(name) || arg.startsWith(name + "=")) {
          return ""; // given on the command line
        }
      }
    }
    String variable = ConfigFile.variable(option);
    String value = System.getenv(variable);
    if (value == null || !value.equals(e.getValue())) {
      return "";
    }
    return " (from the environment variable " + variable + (value.isEmpty()
        ? ", which is set but empty: unset it for the default" : "") + ")";
  }

  static int exitCode(Exception e) {
    if (e instanceof Failure || e instanceof dev.kvasir.base.KvLimitException
        || e instanceof dev.kvasir.base.KvTypeException || e instanceof ShardLimitException) {
      return FAILED;
    }
    if (e instanceof RemoteException r && r.status() == 403) {
      return FAILED; // refused by the server (a read-only one, a token's scope), as a value is
    }
    if (e instanceof IllegalArgumentException || e instanceof KvArgumentException
        || e instanceof CidFormatException || e instanceof DagCborException) {
      return USAGE; // a value, cursor or CID given on the command line
    }
    if (e instanceof UnsupportedOperationException) {
      return USAGE; // a command this kind of database cannot do, such as backing up a remote one
    }
    return DATABASE_ERROR;
  }

  private static String message(Exception e) {
    Throwable file = e instanceof UncheckedIOException u ? u.getCause() : e;
    if (file instanceof FileSystemException f && f.getFile() != null) {
      return "cannot use " + f.getFile() + ": " + FileErrorReason.of(f);
    }
    if (e instanceof KvException || e instanceof Failure || e instanceof IllegalArgumentException
        || e instanceof DagException || e instanceof IOException
        || e instanceof UnsupportedOperationException
        || e instanceof UncheckedIOException) {
      // The client's limit is the command's --timeout (DatabaseOption), and a pail's shard size
      // kvasir dag's --max-shard-size: said by the options' names.
      return e.getMessage().replace("(remote.deadlineMs reached)", "(--timeout reached)")
          .replace("a larger maxShardSize", "a larger --max-shard-size");
    }
    return e.toString(); // unexpected: the type helps whoever reads the report
  }

  /**
   * What Ctrl-C stops, in the shell or of a command run alone (where SIGTERM does too,
   * {@link Termination#stopCommandsOnSignals}): the running watch, listen, backup, import,
   * export, restore or replicate.
   */
  static Interruption onInterrupt(Runnable action) {
    ON_INTERRUPT.set(action);
    return () -> ON_INTERRUPT.compareAndSet(action, null);
  }

  /**
   * What stops a command that runs until stopped ({@code watch}, {@code listen}, {@code
   * backup}): Ctrl-C and SIGTERM as for {@link #onInterrupt}, and its reader going away
   * ({@link ReaderWatch}).
   */
  static Interruption untilStopped(Runnable action) {
    Interruption signals = onInterrupt(action);
    Interruption reader = ReaderWatch.onReaderGone(action);
    return () -> {
      reader.close();
      signals.close();
    };
  }

  /** Runs the registered interruption, if any; true if there was one. */
  static boolean interrupt() {
    Runnable action = ON_INTERRUPT.getAndSet(null);
    if (action != null) {
      action.run();
    }
    return action != null;
  }

  /** Unregisters an interruption. */
  interface Interruption extends AutoCloseable {
    @Override
    void close();
  }

  /** The version from the jar's manifest, or "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Kvasir.class.getPackage().getImplementationVersion();
      return new String[] {"kvasir " + (v == null ? "dev" : v)};
    }
  }
}
