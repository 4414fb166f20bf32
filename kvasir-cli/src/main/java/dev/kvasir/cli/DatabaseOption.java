package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.base.FileErrorReason;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.Engines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --db}, {@code --access-token}, {@code --ca-file}, {@code --db-password-file},
 * {@code --db-option} and {@code --timeout} options every database command takes. The
 * environment gives the same defaults as it gives {@code kvasir serve}, so a shell set up for a
 * server reaches that server's database.
 */
final class DatabaseOption {
  static final String DEFAULT = "./kvasir.sqlite3";
  // Variables read here rather than through an option's default value, for the reasons below.
  static final String ACCESS_TOKEN_VARIABLE = "KVASIR_ACCESS_TOKEN";
  static final String PASSWORD_FILE_VARIABLE = "KVASIR_DB_PASSWORD_FILE";
  static final String CA_FILE_VARIABLE = "KVASIR_CA_FILE";

  // The same variable as serve's --db: a shell that exports it for the server would otherwise
  // send every other command, writes included, to a new ./kvasir.sqlite3 without a word
  // (docs/operations.md §2).
  @Option(names = "--db", paramLabel = "LOCATION",
      defaultValue = "${env:KVASIR_DB:-" + DEFAULT + "}",
      description = "A SQLite file, :memory:, an http(s):// KV Connect URL, a"
          + " postgresql:// URL, or any location an engine on the class path takes."
          + " Default: the environment variable KVASIR_DB, else " + DEFAULT)
  String location = DEFAULT;

  @Option(names = "--at", paramLabel = "WHEN",
      description = "Read a dag: database or backup as it was at WHEN: an ISO-8601 time, a"
          + " versionstamp (20 hex digits) or a commit CID (same as --db 'dag:DIR?at=WHEN').")
  String at;

  @Option(names = "--access-token", paramLabel = "TOKEN",
      description = "The token for an http(s):// database. Default: the environment variable"
          + " KVASIR_ACCESS_TOKEN (or DENO_KV_ACCESS_TOKEN).")
  String accessToken;

  @Option(names = "--ca-file", paramLabel = "FILE",
      description = "For an https:// database: also trust the CA certificates of this PEM file,"
          + " for a server whose certificate your own CA signed (as curl --cacert). Default:"
          + " the environment variable KVASIR_CA_FILE.")
  Path caFile;

  @Option(names = "--db-password-file", paramLabel = "FILE",
      description = "Read the database password from the first line of this file, for a"
          + " postgresql:// URL that leaves it out. Default: the environment variable"
          + " KVASIR_DB_PASSWORD_FILE, for a postgresql:// database.")
  Path passwordFile;

  @Option(names = "--db-option", paramLabel = "NAME=VALUE", split = ",",
      defaultValue = "${env:KVASIR_DB_OPTION}",
      description = "An option of the database's engine, e.g. sqlite.busyTimeoutMs=30000 or"
          + " sqlite.synchronous=NORMAL; repeat it or separate several with commas. An option"
          + " the engine does not read is refused, naming those it does. Default: the"
          + " environment variable KVASIR_DB_OPTION.")
  Map<String, String> engineOptions;

  @Option(names = "--timeout", paramLabel = "DURATION",
      defaultValue = "${env:KVASIR_TIMEOUT:-30s}",
      description = "For an http(s):// database: how long one call to the server may take, its"
          + " retries included, before the command gives up (exit 3). Default: ${DEFAULT-VALUE}")
  Duration timeout = Duration.ofSeconds(30);

  /** The location to open: {@code --db}, with {@code --at} as its {@code ?at=}. */
  String location() {
    if (at == null) {
      return location;
    }
    if (!location.startsWith("dag:") || location.contains("?")) {
      throw new IllegalArgumentException("--at reads a past state of a dag: database or backup"
          + " (--db dag:DIR); got --db " + location);
    }
    return location + "?at=" + at;
  }

  /** The command this option belongs to, which tells whether --db was on its command line. */
  @Spec(Spec.Target.MIXEE) CommandSpec command;

  /** The engine that opens {@link #location()}. */
  EngineProvider engine() {
    return provider(location(), fromEnvironment());
  }

  /**
   * The engine that takes {@code location}, which must also take it as a name of its files
   * (the SQLite engine refuses {@code sqlite:x} there). A refusal ends with {@code source}, where
   * the location came from; the same exception type keeps its exit code.
   */
  static EngineProvider provider(String location, String source) {
    try {
      EngineProvider provider = Engines.provider(location);
      provider.files(location);
      return provider;
    } catch (KvException e) {
      throw withSource(e, source);
    }
  }

  /**
   * {@code e} with {@code source} (where the location came from) after its message; an argument
   * error stays one, for its exit code.
   */
  static KvException withSource(KvException e, String source) {
    if (source.isEmpty()) {
      return e;
    }
    return e instanceof KvArgumentException ? new KvArgumentException(e.getMessage() + source, e)
        : new KvException(e.getMessage() + source, e);
  }

  private String fromEnvironment() {
    return fromEnvironment(command, location);
  }

  /**
   * Where {@code --db} came from when the environment gave it to {@code command}: an error
   * quoting a location the user never typed on this command line must say where it comes from.
   * Empty otherwise.
   */
  static String fromEnvironment(CommandSpec command, String location) {
    boolean typed = command != null && command.commandLine() != null
        && command.commandLine().getParseResult() != null
        && command.commandLine().getParseResult().hasMatchedOption("--db");
    return !typed && location.equals(System.getenv("KVASIR_DB"))
        ? " (--db from the environment variable KVASIR_DB)" : "";
  }

  /**
   * Opens the database. A file that does not exist is created only by commands that write, so
   * that a mistyped path does not leave an empty database behind; commands that only read open
   * a file read-only, so that they work on a read-only file system and while another process
   * holds the write lock.
   */
  Kv open(boolean writes) {
    EngineProvider engine = engine();
    String where = location();
    List<Path> files = engine.files(where);
    if (!writes && !files.isEmpty() && !Files.exists(files.get(0))) {
      throw new KvException("there is no database at " + where
          + FileErrorReason.unexpandedTilde(where) + fromEnvironment() + "; check --db"
          + " (commands that write, such as set or import, create it)");
    }
    KvOptions options = EngineOptions.of(engineOptions);
    options = writes ? options : engine.readOnly(options);
    boolean remote = where.startsWith("http://") || where.startsWith("https://");
    // The environment's token is for servers only: a shell that exports it for 'kvasir serve'
    // or a remote database still opens local files. A token given as an option to any other
    // database is refused by its engine, as a mistake.
    String token = accessToken != null ? accessToken
        : remote ? System.getenv(ACCESS_TOKEN_VARIABLE) : null;
    if (token != null && !token.isEmpty()) {
      options = options.with("accessToken", token);
    } else if (remote && isEmpty(System.getenv("DENO_KV_ACCESS_TOKEN"))) {
      // The engine's own message names its option, which the command line spells otherwise.
      throw new IllegalArgumentException(where + " needs its access token: --access-token, or"
          + " the environment variable KVASIR_ACCESS_TOKEN (or DENO_KV_ACCESS_TOKEN)");
    }
    // Likewise the password file that serve's configuration names, for an engine that logs in.
    String envPasswordFile = System.getenv(PASSWORD_FILE_VARIABLE);
    Path password = passwordFile != null ? passwordFile
        : engine.takesPassword() && !isEmpty(envPasswordFile)
            ? Path.of(envPasswordFile) : null;
    if (password != null) {
      options = options.with("password", Secrets.databasePassword(password, engine, where));
    }
    Optional<Path> ca = caFile(caFile, where.startsWith("https://"),
        () -> "database; got --db " + engine.describe(where));
    if (ca.isPresent()) {
      options = options.with("remote.caFile", ca.get().toString());
    }
    if (remote) {
      if (timeout.isZero()) {
        throw new IllegalArgumentException("--timeout must be positive");
      }
      // A server that accepts but never answers would otherwise hold the command for every
      // retry's full time limit, minutes in all (docs/kv-connect.md §11).
      options = options.with("remote.deadlineMs", Long.toString(timeout.toMillis()));
    }
    return Kv.of(engine.open(where, options));
  }

  /**
   * The PEM file of CA certificates to trust: {@code given} ({@code --ca-file}), else for an
   * https:// server the environment's {@code KVASIR_CA_FILE}, which other servers' commands
   * ignore as they ignore its token.
   *
   * @throws IllegalArgumentException for {@code --ca-file} given for a server that is not
   *     https://, which {@code got} describes ("URL; got http://…")
   */
  static Optional<Path> caFile(@Nullable Path given, boolean https, Supplier<String> got) {
    if (given != null) {
      if (!https) {
        throw new IllegalArgumentException("--ca-file is for an https:// " + got.get());
      }
      return Optional.of(given);
    }
    String fromEnvironment = System.getenv(CA_FILE_VARIABLE);
    return https && !isEmpty(fromEnvironment) ? Optional.of(Path.of(fromEnvironment))
        : Optional.empty();
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
