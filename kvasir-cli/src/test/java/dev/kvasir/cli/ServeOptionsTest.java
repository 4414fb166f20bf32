package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * Every option of {@code serve} comes from the environment variable named after it; a number
 * out of range is a usage error that names its option and opens no database; a database that
 * cannot be opened is a database error that says why.
 */
class ServeOptionsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "--port|70000|--port is 0 (any free port) to 65535: 70000",
      "--port|-1|--port is 0 (any free port) to 65535: -1",
      "--max-watches|0|--max-watches must be positive: 0",
      "--max-queue-polls|-1|--max-queue-polls must be positive: -1",
      "--max-connections|0|--max-connections must be positive: 0",
      "--max-body-memory|0|--max-body-memory must be positive: 0",
      "--max-body-memory|1x|Invalid value for option '--max-body-memory': '1x' is not a size",
      "--max-body-memory|99999999999999g|Invalid value for option '--max-body-memory':"
          + " '99999999999999g' is too large a size"})
  void aNumberOutOfRange_isAUsageError_namingItsOption(String option, String value,
      String message) {
    StringWriter err = new StringWriter();
    Path db = dir.resolve("never.sqlite3");
    int status = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(err)).execute("serve", "--db", db.toString(), option, value);
    assertThat(status).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).contains("error: " + message);
    assertThat(Files.exists(db)).isFalse();
  }

  @Test
  void aDirectoryAsTheDatabase_isADatabaseError_thatSaysSo() throws Exception {
    StringWriter err = new StringWriter();
    Path data = Files.createDirectory(dir.resolve("data"));
    int status = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(err)).execute("serve", "--db", data.toString(), "--port", "0");
    assertThat(status).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(err.toString()).contains("cannot open " + data
        + ": it is a directory, not a database file; name a file, for example "
        + data.resolve("kv.sqlite3"));
  }

  @Test
  void aPasswordFileForASqliteFile_isAUsageError_notAnUnknownOption() throws Exception {
    StringWriter err = new StringWriter();
    Path db = dir.resolve("never.sqlite3");
    Path password = Files.writeString(dir.resolve("password"), "secret\n");
    int status = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(err)).execute("serve", "--db", db.toString(), "--port", "0",
            "--db-password-file", password.toString());
    assertThat(status).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).contains("error: a database password file (--db-password-file or"
        + " KVASIR_DB_PASSWORD_FILE) is for a database that logs in with a password, such as"
        + " postgresql://; the SQLite database " + db + " takes none");
    assertThat(Files.exists(db)).isFalse();
  }

  @Test
  void aHostOrPortThatCannotBeBound_saysWhichAndWhy() throws Exception {
    Path db = dir.resolve("kv.sqlite3");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = Integer.toString(taken.getLocalPort());
      assertThat(serveError("--host", "127.0.0.1", "--port", port, "--db", db.toString()))
          .endsWith(": another process listens on that port; choose another --port\n");
    }
    // An address of another machine (TEST-NET-3, documentation only).
    assertThat(serveError("--host", "203.0.113.9", "--port", "4512", "--db", db.toString()))
        .contains("--host must be an address of this machine");
    // Found before the database is opened: a missing one was created for the failed start.
    assertThat(db).doesNotExist();
    // A low port without the privilege (this test may run as root, which has it).
    assertThat(ServeCommand.bindHint(new java.net.BindException("Permission denied")))
        .isEqualTo(": Permission denied; a port below 1024 needs privileges this process lacks,"
            + " choose a --port of 1024 or above");
    // The hint was "is the port in use?" whatever the cause.
    assertThat(serveError("--host", "999.1.1.1", "--port", "0", "--db", db.toString()))
        .contains("--host is neither an address nor a name this machine resolves");
    assertThat(serveError("--config", dir.resolve("missing.properties").toString()))
        .endsWith("cannot read the configuration file " + dir.resolve("missing.properties")
            + ": no such file or directory\n");
  }

  /** Java's message for a missing file is its path alone: "… from token.txt: token.txt". */
  @Test
  void aSecretFileThatIsMissing_isSaidSo() {
    Path missing = dir.resolve("missing.txt");
    for (String option : new String[] {"--access-token-file", "--tokens-file"}) {
      StringWriter err = new StringWriter();
      int status = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
          new PrintWriter(err)).execute("serve", option, missing.toString());
      assertThat(status).isEqualTo(Kvasir.USAGE);
      assertThat(err.toString()).endsWith(" " + missing + ": no such file or directory\n");
    }
  }

  @Test
  void engineOptions_reachTheEngine_fromTheOptionTheEnvironmentOrTheConfigFile()
      throws Exception {
    Path db = dir.resolve("kv.sqlite3");
    assertThat(serveError("--db", db.toString(), "--port", "0", "--db-option",
        "sqlite.busyTimeoutMs=1000,nope=1"))
        .contains("error: unknown option nope for the SQLite engine; it reads"
            + " sqlite.busyTimeoutMs, sqlite.queuePollMs, sqlite.readOnly, sqlite.readers,"
            + " sqlite.synchronous");
    Path config = Files.writeString(dir.resolve("kvasir.properties"),
        "db-option = sqlite.readers=0\n");
    assertThat(serveError("--db", db.toString(), "--port", "0", "--config", config.toString()))
        .contains("sqlite.readers must be 1 to 64");
  }

  @Test
  void listDurationAndPairSettings_areReadFromTheConfigFile() throws Exception {
    // trusted-proxy, a list, was "no conversion to interface java.util.List" once uncommented.
    Path config = Files.writeString(dir.resolve("kvasir.properties"), String.join("\n",
        "trusted-proxy = 10.0.0.0/8, 127.0.0.1", "db-wait = 2s", "db-option = sqlite.readers=2",
        ""));
    CommandLine cli = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()));
    cli.parseArgs("serve", "--config", config.toString());
    CommandLine serve = cli.getSubcommands().get("serve");
    ConfigFile.apply(serve.getCommandSpec(), config);
    ServeCommand command = serve.getCommand();
    assertThat(command.trustedProxies).containsExactly("10.0.0.0/8", "127.0.0.1");
    assertThat(command.dbWait).isEqualTo(Duration.ofSeconds(2));
    assertThat(command.engineOptions).containsEntry("sqlite.readers", "2");
  }

  /**
   * Every setting of the file is read as the same option on the command line reads it: a size,
   * whose option names its own converter, was "no conversion to class java.lang.Long".
   */
  @Test
  void everySettingOfTheConfigFile_isReadAsTheCommandLineReadsIt() throws Exception {
    Map<String, String> samples = Map.ofEntries(Map.entry("db", "x.sqlite3"),
        Map.entry("port", "4600"), Map.entry("host", "0.0.0.0"),
        Map.entry("access-token", "sample-token-0123"), Map.entry("access-token-file", "t.txt"),
        Map.entry("tokens-file", "tokens.txt"), Map.entry("log-level", "info"),
        Map.entry("log-format", "json"), Map.entry("access-log", "true"),
        Map.entry("trusted-proxy", "10.0.0.0/8,127.0.0.1"),
        Map.entry("metrics-token-file", "m.txt"), Map.entry("db-password-file", "p.txt"),
        Map.entry("db-wait", "1h30m"), Map.entry("db-option", "sqlite.readers=2"),
        Map.entry("read-only", "true"), Map.entry("max-watches", "7"),
        Map.entry("max-connections", "9"), Map.entry("queue-lease", "45s"),
        Map.entry("max-queue-polls", "3"), Map.entry("max-body-memory", "64MB"),
        Map.entry("tls-cert", "c.pem"), Map.entry("tls-key", "k.pem"),
        Map.entry("tls-keystore", "k.p12"), Map.entry("tls-password", "secret"));
    StringBuilder text = new StringBuilder();
    samples.forEach((name, value) -> text.append(name).append(" = ").append(value).append('\n'));
    Path config = Files.writeString(dir.resolve("all.properties"), text);
    CommandLine fromFile = serveParsed("--config", config.toString());
    ConfigFile.apply(fromFile.getCommandSpec(), config);
    List<String> settable = new ArrayList<>();
    for (OptionSpec option : fromFile.getCommandSpec().options()) {
      String name = ConfigFile.name(option);
      if (!option.usageHelp() && !option.versionHelp() && !name.equals("config")) {
        settable.add(name);
        Object fromLine = serveParsed("--" + name + "=" + samples.get(name)).getCommandSpec()
            .findOption(option.longestName()).getValue();
        assertThat((Object) option.getValue()).as(name).isEqualTo(fromLine)
            .isNotEqualTo(option.initialValue());
      }
    }
    assertThat(settable).containsExactlyInAnyOrderElementsOf(samples.keySet());
  }

  private static CommandLine serveParsed(String... options) {
    CommandLine cli = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()));
    List<String> args = new ArrayList<>(List.of("serve"));
    args.addAll(List.of(options));
    cli.parseArgs(args.toArray(String[]::new));
    return cli.getSubcommands().get("serve");
  }

  @Test
  void filesWrittenWithAByteOrderMark_readAsTheirText() throws Exception {
    // The mark made the first setting "\uFEFFport", no setting of serve, and the token or
    // password in a secret file one character longer than typed.
    Path config = Files.writeString(dir.resolve("bom.properties"), "\uFEFFport = 70000\n");
    assertThat(serveError("--config", config.toString(), "--db",
        dir.resolve("kv.sqlite3").toString()))
        .contains("--port is 0 (any free port) to 65535: 70000");
    Path secret = Files.writeString(dir.resolve("token"), "\uFEFFtoken-0123456789\r\n");
    assertThat(Secrets.firstLine(secret, "token")).isEqualTo("token-0123456789");
  }

  private static String serveError(String... options) {
    StringWriter err = new StringWriter();
    String[] args = new String[options.length + 3];
    args[0] = "serve";
    args[1] = "--access-token";
    args[2] = "serve-options-token-01";
    System.arraycopy(options, 0, args, 3, options.length);
    int status = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(err)).execute(args);
    assertThat(status).as(err.toString()).isNotZero();
    return err.toString();
  }

  @Test
  void eachOption_defaultsToItsEnvironmentVariable() {
    var serve = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())).getSubcommands().get("serve").getCommandSpec();
    int checked = 0;
    for (Field field : ServeCommand.class.getDeclaredFields()) {
      Option declared = field.getAnnotation(Option.class);
      if (declared == null) {
        continue;
      }
      OptionSpec option = serve.findOption(declared.names()[0]);
      String env = "${env:" + ConfigFile.variable(option);
      assertThat(declared.defaultValue()).as(declared.names()[0]).satisfiesAnyOf(
          d -> assertThat(d).isEqualTo(env + "}"), d -> assertThat(d).startsWith(env + ":-"));
      checked++;
    }
    assertThat(checked).isEqualTo(serve.options().size() - 2); // all but --help and --version
  }
}
