package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.testkit.ChildJvm;
import dev.kvasir.testkit.DiskFiller;
import dev.kvasir.testkit.FailingDisk;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit whose {@code fsync} fails on a real device ({@link FailingDisk}). SQLite drops the
 * transaction from its own view but leaves it in the write-ahead log, so a process killed before
 * its next commit has it replayed by the next open (docs/sqlite.md §10). The engine must
 * therefore say the commit was perhaps applied, never that it was not: a caller told "not
 * applied" would make it again, and have it twice.
 */
class FailedSyncIT {
  /** Entries of 60 KB per commit: more than a few new blocks of the device each time. */
  private static final int ENTRIES = 10;

  @TempDir Path dir;
  private FailingDisk disk;

  @BeforeEach
  void mountDisk() throws Exception {
    disk = FailingDisk.mount(dir.resolve("disk"), dir.resolve("backing"));
  }

  @AfterEach
  void unmount() throws Exception {
    if (disk != null) {
      disk.close();
    }
  }

  @Test
  void aCommitWhoseSyncFailed_isPerhapsApplied_andAKilledProcessReplaysIt() throws Exception {
    String file = disk.path().resolve("synced.sqlite3").toString();
    Process child = ChildJvm.start(FailingCommits.class, file);
    BufferedReader childOut = child.inputReader(StandardCharsets.UTF_8);
    String out = readUntil(childOut, "first committed");
    disk.failWrites();
    child.outputWriter(StandardCharsets.UTF_8).append("go\n").flush();
    out += readUntil(childOut, "waiting");
    child.destroyForcibly(); // SIGKILL: the log stays as the failed commit left it
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    System.out.print(out);
    Matcher failed = Pattern.compile("commit (\\d+) failed maybeApplied=(\\w+): (.*)").matcher(out);
    assertThat(failed.find()).as(out).isTrue();
    int before = Integer.parseInt(failed.group(1));
    assertThat(failed.group(2)).as(out).isEqualTo("true");
    assertThat(failed.group(3)).contains("SQLITE_IOERR", "perhaps applied");
    assertThat(out).contains("entries seen after the failure: " + before * ENTRIES);

    disk.healWrites();
    try (Kv kv = Kv.open(file)) {
      assertThat(DiskFiller.entries(kv)).as("the failed commit, replayed from the log whole")
          .isEqualTo((before + 1) * ENTRIES);
      kv.set(KvKey.of("after"), "written once the device recovered");
      assertThat(kv.get(KvKey.of("first")).value()).isEqualTo("written while the device worked");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("pragma integrity_check")) {
      assertThat(r.getString(1)).isEqualTo("ok");
    }
  }

  private static String readUntil(BufferedReader reader, String last) throws Exception {
    StringBuilder out = new StringBuilder();
    for (String line; (line = reader.readLine()) != null; ) {
      out.append(line).append('\n');
      if (line.equals(last)) {
        return out.toString();
      }
    }
    throw new AssertionError("the child ended before printing '" + last + "': " + out);
  }

  /**
   * A child process: makes a first commit while the device works, then, told to go once it
   * fails, commits {@value #ENTRIES} values of 60 KB at a time until a commit fails, prints the
   * outcome, and waits to be killed. The device fails only writes to blocks its image has not
   * held before, and a commit may still land in blocks it has (in one of the first test runs, a
   * whole commit did), so it goes on until one fails. The first commit matters too: SQLite syncs
   * the header of a new log before its first frame, so the first commit of a log would fail
   * before any frame is in it.
   */
  public static final class FailingCommits {
    private FailingCommits() {}

    public static void main(String[] args) throws Exception {
      Kv kv = Kv.open(args[0]); // left open: the process is killed, as a crash would end it
      kv.set(KvKey.of("first"), "written while the device worked");
      System.out.println("first committed");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      Random random = new Random(3);
      for (int n = 0; n < 40; n++) {
        var commit = kv.atomic();
        for (int i = 0; i < ENTRIES; i++) {
          byte[] value = new byte[DiskFiller.VALUE_BYTES];
          random.nextBytes(value);
          commit.set(KvKey.of("big", n * ENTRIES + i), value);
        }
        try {
          commit.commit();
        } catch (KvUnavailableException e) {
          System.out.println("commit " + n + " failed maybeApplied=" + e.maybeApplied() + ": "
              + e.getMessage());
          break;
        }
      }
      System.out.println("entries seen after the failure: " + DiskFiller.entries(kv));
      System.out.println("waiting");
      System.out.flush();
      Thread.sleep(600_000);
    }
  }
}
