package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.testkit.DeepValues;
import dev.kvasir.value.JsValues;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI at the edges, where data was lost or invented: a reader that closes the pipe early,
 * input that is not UTF-8, entries another program stored in a form nobody can read, a token of
 * white space, a public address without TLS.
 */
class CliEdgesIT {
  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void jar() {
    kvasir = new Jar(dir);
  }

  /** Starts the command, reads one line of its output, then closes the pipe like head -1. */
  private Jar.Run firstLineThenClose(String... args) throws Exception {
    Process p = kvasir.start(args);
    InputStream out = p.getInputStream();
    StringBuilder line = new StringBuilder();
    for (int b; (b = out.read()) != -1 && b != '\n'; ) {
      line.append((char) b);
    }
    out.close();
    boolean stopped = p.waitFor(60, TimeUnit.SECONDS);
    if (!stopped) {
      p.destroyForcibly(); // not left running after the test
    }
    assertThat(stopped).as("it stopped").isTrue();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Jar.Run(p.exitValue(), line.toString(), err);
  }

  @Test
  void listIntoAClosedPipe_stopsAtOnce() throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      lines.append("{\"key\":[\"n\",").append(i).append("],\"value\":").append(i).append("}\n");
    }
    assertThat(kvasir.runWithInput(lines.toString().getBytes(StandardCharsets.UTF_8), "import",
        "-").exit()).isZero();
    for (String command : List.of("list", "export")) {
      Jar.Run run = firstLineThenClose(command);
      assertThat(run.out()).contains("\"n\"");
      assertThat(run.exit()).as(command + ": " + run.err()).isEqualTo(Kvasir.PIPE_CLOSED);
    }
  }

  @Test
  void aReaderGoneBeforeTheFewLines_isAClosedPipe_notAFullDisk() throws Exception {
    // Fewer entries than the walk writes between two looks at its output: only the last look
    // saw the closed pipe, and export then blamed the disk (exit 3), list not at all (exit 0).
    for (int i = 0; i < 3; i++) {
      assertThat(kvasir.run("set", "[\"k\", " + i + "]", "1").exit()).isZero();
    }
    for (String command : List.of("list", "export")) {
      Process p = kvasir.start(command);
      p.getInputStream().close();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(command + ": " + err).isEqualTo(Kvasir.PIPE_CLOSED);
      assertThat(err).doesNotContain("disk full");
    }
  }

  @Test
  void listenIntoAClosedPipe_leavesTheUnreadMessagesQueued() throws Exception {
    // One attempt each: the message taken for the line that could not be written was counted
    // as a failed attempt, and so dead-lettered.
    for (int i = 1; i <= 5; i++) {
      assertThat(kvasir.run("enqueue", "\"m" + i + "\"", "--backoff-schedule", "none",
          "--keys-if-undelivered", "[\"dead\", " + i + "]").exit()).isZero();
    }
    Jar.Run first = firstLineThenClose("listen", "--count", "5");
    assertThat(first.out()).isEqualTo("\"m1\"");
    assertThat(first.exit()).isEqualTo(Kvasir.PIPE_CLOSED);
    assertThat(first.err()).as("no stack trace for a closed pipe").doesNotContain("Exception");

    Jar.Run rest = kvasir.run("listen", "--count", "4");
    assertThat(rest.exit()).isZero();
    assertThat(rest.out().lines().sorted().toList())
        .containsExactly("\"m2\"", "\"m3\"", "\"m4\"", "\"m5\"");
    assertThat(kvasir.run("count", "--prefix", "[\"dead\"]").out()).isEqualTo("0\n");
  }

  @Test
  void commandsThatWaitForEvents_stopOnceTheReaderGoes_notAtTheirNextLine() throws Exception {
    // Nothing changes and no message comes after the first line: these learnt that nobody
    // reads only from their next write, and ran on, holding the database, until then.
    assertThat(kvasir.run("set", "[\"k\"]", "1").exit()).isZero();
    assertThat(kvasir.run("enqueue", "\"m1\"").exit()).isZero();
    List<List<String>> commands = List.of(List.of("watch", "[\"k\"]"), List.of("listen"),
        List.of("backup", "--to", "dag:" + dir.resolve("backup")));
    for (List<String> command : commands) {
      long started = System.nanoTime();
      Jar.Run run = firstLineThenClose(command.toArray(String[]::new));
      assertThat(run.out()).as(command.get(0)).isNotEmpty();
      assertThat(run.exit()).as(command + ": " + run.err()).isEqualTo(Kvasir.PIPE_CLOSED);
      assertThat(run.err()).as(command.get(0)).isEmpty();
      System.out.printf("%s stopped %d ms after it started%n", command.get(0),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }
    // listen acknowledged the message it wrote, and took nothing else.
    assertThat(kvasir.run("info", "--json").out())
        .contains("\"ready\":0,\"delayed\":0,\"running\":0");
  }

  @Test
  void importOfALineLongerThanAnyEntry_stopsAtItsLine_withAReason() throws Exception {
    // Two entries, then what a mistaken file looks like: 64 MiB without a line break.
    Path input = dir.resolve("not-ndjson");
    try (var out = Files.newOutputStream(input)) {
      out.write(("{\"key\":[\"a\"],\"value\":1,\"versionstamp\":\"00000000000000010000\"}\n"
          + "{\"key\":[\"b\"],\"value\":2,\"versionstamp\":\"00000000000000020000\"}\n")
          .getBytes(StandardCharsets.UTF_8));
      byte[] block = new byte[1 << 20];
      java.util.Arrays.fill(block, (byte) '[');
      for (int i = 0; i < 64; i++) {
        out.write(block);
      }
    }
    Jar.Run run = kvasir.run("import", input.toString());
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).contains("line 3", "longer than 16 MiB", "--skip 2")
        .doesNotContain("Exception");
    assertThat(kvasir.run("count").out().strip()).isEqualTo("2");

    Jar.Run exact = kvasir.run("import", "--db", dir.resolve("exact.sqlite3").toString(),
        "--keep-versionstamps", input.toString());
    assertThat(exact.exit()).isEqualTo(1);
    assertThat(exact.err()).contains("line 3", "longer than 16 MiB", "Nothing was imported");
  }

  @Test
  void importOfAFileThatIsMissingOrADirectory_namesIt_andCreatesNoDatabase() throws Exception {
    // It created an empty ./kvasir.sqlite3 first, and a directory was "error: Is a directory".
    Files.createDirectory(dir.resolve("exports"));
    for (boolean exactly : List.of(false, true)) {
      Jar.Run run = exactly ? kvasir.run("import", "--keep-versionstamps", "exports")
          : kvasir.run("import", "exports");
      assertThat(run.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(run.err()).contains("cannot use exports: Is a directory");
      run = kvasir.run("import", "typo.ndjson");
      assertThat(run.err()).contains("cannot use typo.ndjson: no such file or directory");
      assertThat(dir.resolve("kvasir.sqlite3")).doesNotExist();
    }
  }

  @Test
  void aTemporaryDirectoryThatCannotBeWritten_isNamed_withWhatToDo() throws Exception {
    // As in a container with a read-only root file system: the driver cannot unpack its native
    // library. It logged three stack traces, and the command said "Error opening connection".
    Path missing = dir.resolve("no-tmp");
    Jar.Run run = kvasir.run(Map.of("JDK_JAVA_OPTIONS", "-Djava.io.tmpdir=" + missing),
        "set", "[\"k\"]", "1");
    assertThat(run.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(run.err()).contains("SQLite's native library cannot be unpacked into " + missing)
        .contains("org.sqlite.tmpdir").doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void exportOntoADirectory_namesIt_beforeWritingAnything() throws Exception {
    // It wrote the whole export aside, then failed to rename it: "cannot use
    // exports.partial-4711: Is a directory".
    assertThat(kvasir.run("set", "[\"k\"]", "1").exit()).isZero();
    Files.createDirectory(dir.resolve("exports"));
    Jar.Run run = kvasir.run("export", "--output", "exports");
    assertThat(run.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(run.err()).contains("cannot use exports: Is a directory")
        .doesNotContain("partial");
  }

  @Test
  void importOfInputThatIsNotUtf8_stopsAtItsLine_keepingTheLinesBefore() throws Exception {
    byte[] input = ("{\"key\":[\"a\"],\"value\":1}\n{\"key\":[\"b\"],\"value\":2}\n"
        + "{\"key\":[\"c\"],\"value\":\"").getBytes(StandardCharsets.UTF_8);
    byte[] bad = new byte[input.length + 4];
    System.arraycopy(input, 0, bad, 0, input.length);
    bad[input.length] = (byte) 0xff;
    bad[input.length + 1] = '"';
    bad[input.length + 2] = '}';
    bad[input.length + 3] = '\n';
    Jar.Run run = kvasir.runWithInput(bad, "import", "-");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).contains("line 3", "not UTF-8", "--skip 2");
    assertThat(kvasir.run("count").out().strip()).isEqualTo("2");
  }

  @Test
  void valuesNestedAsDeeplyAsTheirSizeAllows_printExportAndImport() throws Exception {
    // Deno's deepest (sets 4 900 levels) overflowed the main thread's stack as JSON, objects
    // over 1 000 levels Jackson's default limit; the thinnest nesting fills 65 536 bytes.
    Object deepest = dev.kvasir.value.V8.deserialize(dev.kvasir.base.Hex.decode(
        "ff0f" + "27".repeat(21_844) + "490e" + "2c01".repeat(21_844)));
    Path db = dir.resolve(DatabaseOption.DEFAULT);
    try (Kv kv = Kv.open(db.toString())) {
      DeepValues.write(kv);
      kv.set(KvKey.of("deepest"), deepest);
    }
    Jar.Run get = kvasir.run("get", "[\"deepest\"]");
    assertThat(get.err()).isEmpty();
    assertThat(get.out()).startsWith("{\"$set\":[{\"$set\":[").endsWith("]}]}\n");
    assertThat(get.exit()).isZero();

    Jar.Run export = kvasir.run("export");
    assertThat(export.err()).isEmpty();
    assertThat(export.exit()).isZero();
    Path lines = Files.writeString(dir.resolve("deep.ndjson"), export.out());
    Jar.Run imported = kvasir.run("import", lines.toString(), "--db", "copy.sqlite3");
    assertThat(imported.err()).contains("imported 5 entries");
    assertThat(imported.exit()).isZero();
    try (Kv copy = Kv.open(dir.resolve("copy.sqlite3").toString())) {
      DeepValues.assertRead(copy);
      assertThat(JsValues.deepEquals(copy.get(KvKey.of("deepest")).value(), deepest)).isTrue();
    }
  }

  @Test
  void corruptEntries_areNamedAndSkipped_andTheExitCodeSaysSo() throws Exception {
    assertThat(kvasir.run("set", "[\"k\", 1]", "\"one\"").exit()).isZero();
    assertThat(kvasir.run("set", "[\"k\", 3]", "\"three\"").exit()).isZero();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:"
        + dir.resolve(DatabaseOption.DEFAULT));
        PreparedStatement p = c.prepareStatement(
            "insert into kv (k, v, v_encoding, version) values (?, ?, ?, 1)")) {
      p.setBytes(1, dev.kvasir.KvKey.of("k", 2).encode());
      p.setBytes(2, new byte[] {(byte) 0xff, 0x10, 0x22});
      p.setInt(3, 7); // an encoding Deno does not define
      p.executeUpdate();
      p.setBytes(1, new byte[] {0x02, 0x6b, 0x00, 0x05, 0x01}); // a part of type 05
      p.setBytes(2, new byte[] {(byte) 0xff, 0x10, 0x5f});
      p.setInt(3, 1);
      p.executeUpdate();
    }
    Jar.Run list = kvasir.run("list");
    assertThat(list.out()).contains("\"one\"", "\"three\"");
    assertThat(list.err()).contains("0x026b000501", "[\"k\",2]", "encoding 7",
        "2 corrupt entries skipped");
    assertThat(list.exit()).isEqualTo(Kvasir.DATABASE_ERROR);

    Jar.Run export = kvasir.run("export");
    assertThat(export.out().lines().count()).isEqualTo(2);
    assertThat(export.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    Jar.Run skipping = kvasir.run("export", "--skip-corrupt");
    assertThat(skipping.out()).isEqualTo(export.out());
    assertThat(skipping.err()).contains("[\"k\",2]");
    assertThat(skipping.exit()).isZero();

    Jar.Run info = kvasir.run("info", "--json");
    assertThat(info.out()).contains("\"corruptEntries\":1");
    assertThat(info.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
  }

  @Test
  void aTokenInTheEnvironment_isForServersOnly_soLocalFilesStillOpen() throws Exception {
    // A shell that exports KVASIR_ACCESS_TOKEN for 'kvasir serve' or a remote database: the
    // SQLite engine refused it, so every command on a local file failed.
    Map<String, String> env = Map.of("KVASIR_ACCESS_TOKEN", "a-token-for-the-server-01");
    assertThat(kvasir.run(env, "set", "[\"k\"]", "1").exit()).isZero();
    assertThat(kvasir.run(env, "get", "[\"k\"]").out()).isEqualTo("1\n");

    try (ServeProcess server = new ServeProcess(dir, env, "--port", "0")) {
      Jar.Run remote = kvasir.run(env, "get", "--db", server.url(), "[\"k\"]");
      assertThat(remote.out()).as(remote.err()).isEqualTo("1\n");
      assertThat(kvasir.run(Map.of("KVASIR_ACCESS_TOKEN", "another-token-entirely"), "get",
          "--db", server.url(), "[\"k\"]").err()).contains("401");
    }

    Jar.Run given = kvasir.run("get", "--access-token", "a-token-for-the-server-01", "[\"k\"]");
    assertThat(given.exit()).as("a token given for a local file is a mistake").isNotZero();
    assertThat(given.err()).contains("accessToken");
  }

  @Test
  void serve_refusesAWhiteSpaceToken_andWarnsOfAPublicAddressWithoutTls() throws Exception {
    Jar.Run blank = kvasir.run("serve", "--access-token", " ".repeat(12));
    assertThat(blank.exit()).isEqualTo(2);
    assertThat(blank.err()).contains("white space");

    Process p = kvasir.start("serve", "--host", "0.0.0.0", "--port", "0",
        "--access-token", "a-long-enough-token");
    try {
      var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
      String first = out.readLine();
      assertThat(first).contains("0.0.0.0", "every interface");
      var err = new java.io.BufferedReader(new java.io.InputStreamReader(p.getErrorStream()));
      assertThat(err.readLine()).contains("WARN", "without TLS"); // a log line, as any other
    } finally {
      p.destroy();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(Files.exists(dir.resolve(DatabaseOption.DEFAULT))).isTrue();
  }

  /** A connection of this process holding the default database's write lock until closed. */
  private Connection holdWriteLock() throws Exception {
    Connection holder = DriverManager.getConnection("jdbc:sqlite:"
        + dir.resolve(DatabaseOption.DEFAULT));
    holder.createStatement().execute("begin immediate");
    return holder;
  }

  @Test
  void readingCommands_workWhileAnotherProcessHoldsTheWriteLock() throws Exception {
    assertThat(kvasir.run("set", "[\"a\"]", "\"here\"").exit()).isZero();
    try (Connection holder = holdWriteLock()) {
      Jar.Run get = kvasir.run("get", "[\"a\"]");
      assertThat(get.exit()).as(get.err()).isZero();
      assertThat(get.out().strip()).isEqualTo("\"here\"");
      assertThat(kvasir.run("list").exit()).isZero();
      holder.createStatement().execute("rollback");
    }
  }

  @Test
  void aLockHeldLongerThanTheDefaultWait_isWaitedFor_givenTheEngineOption() throws Exception {
    // Another process (Deno, a long import) holds the write lock for longer than the 5 s a
    // commit waits by default. The message said to raise sqlite.busyTimeoutMs, which the
    // command line had no way to set.
    assertThat(kvasir.run("set", "[\"a\"]", "1").exit()).isZero();
    try (Connection holder = holdWriteLock()) {
      Process set = kvasir.start("set", "--db-option", "sqlite.busyTimeoutMs=60000", "[\"a\"]",
          "2");
      Thread.sleep(6_000);
      assertThat(set.isAlive()).as("still waiting for the lock").isTrue();
      holder.createStatement().execute("rollback");
      assertThat(set.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(set.exitValue()).as(new String(set.getErrorStream().readAllBytes(),
          StandardCharsets.UTF_8)).isZero();
    }
    assertThat(kvasir.run("get", "[\"a\"]").out()).isEqualTo("2\n");
    Jar.Run unknown = kvasir.run("get", "--db-option", "sqlite.busyTimeout=1", "[\"a\"]");
    assertThat(unknown.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(unknown.err()).contains("unknown option sqlite.busyTimeout for the SQLite engine;"
        + " it reads sqlite.busyTimeoutMs");
  }

  @Test
  void argumentsTheLocaleCannotHold_areRefused_notStoredAsReplacementCharacters()
      throws Exception {
    // In the C locale Java decodes the command line as ASCII: the key was stored, and looked
    // up, as ["\uFFFD\uFFFD\uFFFD\uFFFD"].
    Map<String, String> c = Map.of("LC_ALL", "C", "LANG", "C");
    Jar.Run set = kvasir.run(c, "set", "[\"ключ\"]", "1");
    assertThat(set.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(set.err()).contains("lost characters: Java read the command line in")
        .contains("LC_ALL=C.UTF-8");
    assertThat(kvasir.run(c, "set", "[\"ascii\"]", "1").exit()).isZero();
    Jar.Run utf8 = kvasir.run(Map.of("LC_ALL", "C.UTF-8"), "set", "[\"ключ\"]", "\"значение\"");
    assertThat(utf8.exit()).as(utf8.err()).isZero();
    assertThat(kvasir.run("list", "--json").out()).contains("\"ключ\"").contains("значение")
        .doesNotContain("\uFFFD");
  }

  @Test
  void theShellFedAScript_inTheCLocale_printsOnlyTheAnswers_inUtf8() throws Exception {
    // JLine warned on standard error that it made a dumb terminal, the banner and prompts
    // cluttered the output, and the input was read as ASCII.
    byte[] script = "set [\"k\"] '\"ü\"'\nget [\"k\"]\n".getBytes(StandardCharsets.UTF_8);
    Jar.Run shell = kvasir.runWithInput(Map.of("LC_ALL", "C", "LANG", "C"), script, "shell",
        "--history", dir.resolve("history").toString());
    assertThat(shell.exit()).as(shell.err()).isZero();
    assertThat(shell.err()).isEmpty();
    assertThat(shell.out()).matches("[0-9a-f]{20}\n\"ü\"\n");
  }

  @Test
  void readingCommands_workOnAReadOnlyFileSystem() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
        "mounting a file system read-only needs root");
    Path mount = dir.resolve("ro");
    Files.createDirectories(mount);
    assertThat(new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs",
        mount.toString()).inheritIO().start().waitFor()).isZero();
    try {
      String db = mount.resolve("kv.sqlite3").toString();
      assertThat(kvasir.run("set", "[\"a\"]", "\"here\"", "--db", db).exit()).isZero();
      assertThat(new ProcessBuilder("mount", "-o", "remount,ro", mount.toString()).inheritIO()
          .start().waitFor()).isZero();
      Jar.Run get = kvasir.run("get", "[\"a\"]", "--db", db);
      assertThat(get.exit()).as(get.err()).isZero();
      assertThat(get.out().strip()).isEqualTo("\"here\"");
      Jar.Run set = kvasir.run("set", "[\"b\"]", "1", "--db", db);
      assertThat(set.exit()).as("writing fails clearly").isEqualTo(Kvasir.DATABASE_ERROR);
    } finally {
      new ProcessBuilder("umount", "-l", mount.toString()).inheritIO().start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aFileTheUserMayNotRead_isNamedSo_forReadingAndForWriting() throws Exception {
    assertThat(kvasir.run("set", "[\"a\"]", "\"here\"").exit()).isZero();
    Path db = dir.resolve("kvasir.sqlite3");
    Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("---------"));
    Jar user = kvasir.unprivileged();
    // SQLite said only "unable to open database file", and opening for writing advised
    // opening read-only, which fails the same way.
    for (String[] command : List.of(new String[] {"get", "[\"a\"]"},
        new String[] {"set", "[\"b\"]", "1"})) {
      Jar.Run run = user.run(command);
      assertThat(run.exit()).as(run.err()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(run.err()).contains("cannot open ./kvasir.sqlite3: the user ")
          .contains(" may not read it (its permissions)").doesNotContain("read-only");
    }
  }

  @Test
  void filesThatAreNotThere_andANestedCommandsHelp_areNamedPlainly() throws Exception {
    // Java's message for a missing file is its path alone, and an export's named the
    // partial file the user never asked for.
    Jar.Run in = kvasir.run("import", "--db", "x.sqlite3", "missing.ndjson");
    assertThat(in.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(in.err()).isEqualTo("error: cannot use missing.ndjson: no such file or directory\n");
    Jar.Run out = kvasir.run("set", "[\"a\"]", "1");
    assertThat(out.exit()).isZero();
    Path target = dir.resolve("gone").resolve("x.ndjson");
    out = kvasir.run("export", "--output", target.toString());
    assertThat(out.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(out.err()).isEqualTo("error: cannot use " + target + ": its directory "
        + target.getParent() + " does not exist\n");
    // The help command knows only the top level: 'kvasir help dag get' describes dag.
    Jar.Run nested = kvasir.run("dag", "get");
    assertThat(nested.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(nested.err()).contains("Run 'kvasir dag get --help' for the options");
    assertThat(kvasir.run("get").err()).contains("Run 'kvasir help get' for the options");
    // The engine's message named its option accessToken, which the command line spells
    // otherwise.
    Jar.Run tokenless = kvasir.run("get", "--db", "http://127.0.0.1:1", "[\"a\"]");
    assertThat(tokenless.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(tokenless.err()).isEqualTo("error: http://127.0.0.1:1 needs its access token:"
        + " --access-token, or the environment variable KVASIR_ACCESS_TOKEN (or"
        + " DENO_KV_ACCESS_TOKEN)\n");
  }
}
