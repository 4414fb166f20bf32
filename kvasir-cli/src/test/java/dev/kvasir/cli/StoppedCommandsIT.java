package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM (what a service manager sends) stops the commands that run long as they stop
 * themselves, with their database closed. {@code watch}, {@code listen} and {@code backup},
 * which run until stopped, exit 0; {@code import}, {@code export} and {@code backup --once},
 * stopped before they were done, exit 143 and say how far they got, as do {@code restore} and
 * {@code replicate}. The JVM's default ended them all at once with 143 and no word: a watched
 * Deno file kept the {@code -wal} and {@code -shm} that the read-only open had made beside it,
 * an import did not say where to resume, an export to a file left its partial file, a restore
 * its {@code .restoring-PID} database.
 */
class StoppedCommandsIT {
  private static final int LINES = 200_000;

  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void jar() {
    kvasir = new Jar(dir);
  }

  @Test
  void watchAndListen_stoppedBySigterm_closeTheDatabase_andExitZero() throws Exception {
    assertThat(kvasir.run("set", "[\"k\"]", "1").exit()).isZero();
    assertThat(kvasir.run("enqueue", "\"job\"").exit()).isZero();
    assertThat(logFiles()).as("a closed database has no log").isEmpty();
    for (List<String> command : List.of(List.of("watch", "[\"k\"]"), List.of("listen"))) {
      Process p = kvasir.start(command.toArray(String[]::new));
      CompletableFuture<String> err = Jar.errorsOf(p);
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8));
      assertThat(out.readLine()).as(command + " running").isNotNull();
      assertThat(logFiles()).as("open").isNotEmpty();
      assertThat(sigterm(p)).as(command + ": " + err.get()).isZero();
      assertThat(logFiles()).as(command + " closed the database").isEmpty();
    }
  }

  @Test
  void anImportStoppedBySigterm_keepsWhatItRead_andSaysWhereToResume() throws Exception {
    try (BufferedWriter lines = Files.newBufferedWriter(dir.resolve("in.ndjson"))) {
      for (int i = 0; i < LINES; i++) {
        lines.write("{\"key\":[\"k\"," + i + "],\"value\":\"some value to import\"}\n");
      }
    }
    Process p = kvasir.start("import", "in.ndjson", "--db", "app.sqlite3");
    CompletableFuture<String> err = Jar.errorsOf(p);
    kvasir.awaitWriting(p, "app.sqlite3", 1 << 20);
    assertThat(sigterm(p)).as(err.get()).isEqualTo(143);
    Matcher said = Pattern.compile("import stopped by SIGTERM after line (\\d+): lines 1-\\1"
        + " are imported and nothing after them; run again with --skip \\1 to go on")
        .matcher(err.get());
    assertThat(said.find()).as(err.get()).isTrue();
    long done = Long.parseLong(said.group(1));
    assertThat(done).isBetween(1L, LINES - 1L);
    assertThat(count()).as("lines 1-" + done).isEqualTo(done);
    assertThat(logFiles()).as("the database closed").isEmpty();

    Jar.Run rest = kvasir.run("import", "in.ndjson", "--db", "app.sqlite3", "--skip",
        String.valueOf(done));
    assertThat(rest.exit()).as(rest.err()).isZero();
    assertThat(count()).isEqualTo(LINES);
  }

  /**
   * A producer that writes a few lines and then nothing, its pipe open: the lines are committed
   * while it is silent, and SIGTERM stops the import at once. Read on the command's thread, a
   * blocked read saw neither: nothing was committed until a batch was full, and the signal
   * waited for the next line.
   */
  @Test
  void anImportFromASilentPipe_commitsWhatItRead_andStopsOnSigtermAtOnce() throws Exception {
    Process p = kvasir.start("import", "--db", "app.sqlite3");
    CompletableFuture<String> err = Jar.errorsOf(p);
    OutputStream in = p.getOutputStream();
    for (int i = 0; i < 3; i++) {
      in.write(("{\"key\":[\"k\"," + i + "],\"value\":" + i + "}\n")
          .getBytes(StandardCharsets.UTF_8));
    }
    in.flush();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    Jar.Run counted = kvasir.run("count", "--db", "app.sqlite3");
    while (!counted.out().equals("3\n") && System.nanoTime() < deadline) {
      Thread.sleep(100);
      counted = kvasir.run("count", "--db", "app.sqlite3");
    }
    assertThat(counted.out()).as("committed while the pipe is silent: " + counted.err())
        .isEqualTo("3\n");
    p.toHandle().destroy();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("stopped while the pipe is silent").isTrue();
    assertThat(p.exitValue()).as(err.get()).isEqualTo(143);
    assertThat(err.get()).contains("import stopped by SIGTERM after line 3: lines 1-3 are"
        + " imported and nothing after them; run again with --skip 3 to go on");
    in.close();
  }

  @Test
  void anExportToAFileStoppedBySigterm_leavesNoFile_andSaysSo() throws Exception {
    Entries.write(dir.resolve("app.sqlite3").toString(), LINES,
        "a value long enough to take some writing ");
    Process p = kvasir.start("export", "--db", "app.sqlite3", "--output", "backup.ndjson");
    CompletableFuture<String> err = Jar.errorsOf(p);
    kvasir.awaitWriting(p, "backup.ndjson", 1_000);
    assertThat(sigterm(p)).as(err.get()).isEqualTo(143);
    assertThat(err.get()).containsPattern(
        "export stopped by SIGTERM after \\d+ entries: backup.ndjson is as it was");
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("backup.ndjson"))).as("not even a partial file").isEmpty();
    }
  }

  /**
   * An export into a pipe that nobody reads (a pager left open): its write blocks, and nothing
   * interrupts it, so the export never reached the entry at which it stops and waited for a
   * reader for ever after SIGTERM. It is ended, saying why.
   */
  @Test
  void anExportIntoAPipeNobodyReads_isEndedBySigterm_sayingWhy() throws Exception {
    Entries.write(dir.resolve("app.sqlite3").toString(), LINES,
        "a value long enough to fill a pipe ");
    Process p = kvasir.start("export", "--db", "app.sqlite3");
    CompletableFuture<String> err = Jar.errorsOf(p);
    InputStream unread = p.getInputStream();
    int held = -1; // what the pipe holds, which stops growing once it is full
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Thread.sleep(500);
      int now = unread.available();
      if (now > 0 && now == held) {
        break;
      }
      held = now;
    }
    assertThat(held).as("the pipe filled").isPositive();
    p.toHandle().destroy();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("ended though nothing reads its output")
        .isTrue();
    assertThat(p.exitValue()).as(err.get()).isEqualTo(143);
    assertThat(err.get()).contains("nothing reads standard output, so the command could not"
        + " stop cleanly: ended, its output incomplete");
  }

  /**
   * SIGTERM during a backup's copy gives that copy up at once, following or {@code --once}, and
   * the backup stays byte for byte as it was. The copy used to run to its end first, which for
   * a large database takes longer than a service manager waits before it kills.
   */
  @Test
  void aBackupStoppedBySigtermDuringACopy_givesItUp_leavingTheBackupAsItWas() throws Exception {
    assertThat(kvasir.run("set", "--db", "app.sqlite3", "[\"first\"]", "1").exit()).isZero();
    Jar.Run first = kvasir.run("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once");
    assertThat(first.exit()).as(first.err()).isZero();
    String[] words = first.out().trim().split("\\s+");
    String head = words[words.length - 1]; // the backup's commit ends the line
    Path log = dir.resolve("bk").resolve("blocks.kvdag");
    byte[] before = Files.readAllBytes(log);
    Entries.write(dir.resolve("app.sqlite3").toString(), LINES, "a value to back up ");

    // A copy is under way once it has written blocks past the backup's last commit: a
    // transaction over 8 MiB writes them as it goes (docs/dag-engine.md §2).
    long underWay = before.length + (1 << 20);
    Process following = kvasir.start("backup", "--db", "app.sqlite3", "--to", "dag:bk");
    CompletableFuture<String> followingErr = Jar.errorsOf(following);
    kvasir.awaitWriting(following, "bk/blocks.kvdag", underWay);
    assertThat(sigterm(following)).as(followingErr.get()).isZero();
    assertThat(followingErr.get()).contains("backup stopped by SIGTERM during a copy, which was"
        + " not kept: the backup is as it was, ending at " + head);
    assertThat(Files.readAllBytes(log)).isEqualTo(before);

    Process once = kvasir.start("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once");
    CompletableFuture<String> onceErr = Jar.errorsOf(once);
    kvasir.awaitWriting(once, "bk/blocks.kvdag", underWay);
    assertThat(sigterm(once)).as(onceErr.get()).isEqualTo(143);
    assertThat(onceErr.get()).contains("backup stopped by SIGTERM before its copy was complete:"
        + " the backup is as it was, ending at " + head);
    assertThat(Files.readAllBytes(log)).isEqualTo(before);
    assertThat(logFiles()).as("the database closed").isEmpty();

    Jar.Run whole = kvasir.run("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once");
    assertThat(whole.exit()).as(whole.err()).isZero();
    assertThat(whole.out()).contains((LINES + 1) + " entries, " + LINES + " changed");
  }

  /**
   * SIGTERM stops a restore or a replication as a failure does: nothing at the target, nothing
   * built beside it, and a word. The JVM's default ended them without one, a restore with its
   * {@code .restoring-PID} database left over and a replication with an empty one.
   */
  @Test
  void aRestoreOrReplicationStoppedBySigterm_leavesNothing_andSaysSo() throws Exception {
    Entries.write(dir.resolve("app.sqlite3").toString(), LINES, "a value to restore ");
    Jar.Run backup = kvasir.run("backup", "--db", "app.sqlite3", "--to", "dag:bk", "--once");
    assertThat(backup.exit()).as(backup.err()).isZero();

    Process p = kvasir.start("restore", "--from", "dag:bk", "--to", "restored.sqlite3");
    CompletableFuture<String> err = Jar.errorsOf(p);
    kvasir.awaitWriting(p, "restored.sqlite3.restoring-", 1 << 20);
    assertThat(sigterm(p)).as(err.get()).isEqualTo(143);
    assertThat(err.get()).containsPattern("restore stopped by SIGTERM before it was complete:"
        + " nothing was restored to .*restored.sqlite3");
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("restored"))).as("nothing at or beside the target").isEmpty();
    }

    Process replicate = kvasir.start("replicate", "dag:bk", "dag:replica");
    CompletableFuture<String> replicateErr = Jar.errorsOf(replicate);
    kvasir.awaitWriting(replicate, "replica/blocks.kvdag", 1 << 20); // under way, as above
    assertThat(sigterm(replicate)).as(replicateErr.get()).isEqualTo(143);
    assertThat(replicateErr.get()).contains("replicate stopped by SIGTERM before it was"
        + " complete: nothing was replicated to dag:replica");
    assertThat(dir.resolve("replica")).as("no commit arrived whole").doesNotExist();
  }

  /**
   * Sends SIGTERM alone, as a service manager does, and returns the exit status. {@code
   * Process.destroy()} also closed this side's pipes: a command still printing then failed on
   * its output (141) before it handled the signal.
   */
  private static int sigterm(Process p) throws InterruptedException {
    p.toHandle().destroy();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
    return p.exitValue();
  }

  private long count() throws Exception {
    Jar.Run run = kvasir.run("count", "--db", "app.sqlite3");
    assertThat(run.exit()).as(run.err()).isZero();
    return Long.parseLong(run.out().trim());
  }

  private List<String> logFiles() throws Exception {
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith("-wal") || n.endsWith("-shm")).toList();
    }
  }
}
