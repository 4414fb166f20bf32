package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.testkit.ChildJvm;
import dev.kvasir.testkit.DiskFiller;
import dev.kvasir.testkit.SmallTmpfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full file system: a 2 MiB tmpfs mounted for the test (which needs root; without it the
 * test is skipped and says why). Writes that meet the full disk fail as unavailable and leave
 * nothing behind, another process can read meanwhile, and once space is freed the same engine
 * writes again, with every acknowledged entry intact.
 */
class DiskFullIT {
  @TempDir Path dir;
  private SmallTmpfs tmpfs;

  @BeforeEach
  void mountTmpfs() throws Exception {
    tmpfs = SmallTmpfs.mount(dir.resolve("small"), "2m");
  }

  @AfterEach
  void unmount() throws Exception {
    if (tmpfs != null) {
      tmpfs.close();
    }
  }

  @Test
  void writesOnAFullDisk_failAsUnavailable_andSucceedOnceSpaceIsFreed() throws Exception {
    String file = tmpfs.path().resolve("full.sqlite3").toString();
    Path filler = tmpfs.path().resolve("filler");
    try (Kv kv = Kv.open(file)) {
      kv.set(KvKey.of("first"), "written before the disk filled");
      Files.write(filler, new byte[1200 * 1024]);

      DiskFiller.Filled filled = DiskFiller.fill(kv);
      int acknowledged = filled.acknowledged();
      KvUnavailableException full = filled.failure();
      assertThat(full).as("the disk filled up").isNotNull();
      assertThat(full.maybeApplied()).isFalse();
      assertThat(full.getMessage()).contains("full");
      assertThat(DiskFiller.entries(kv)).as("no partial commit").isEqualTo(acknowledged);

      // Still full: every further write fails the same way, none wedges the engine.
      for (int i = 0; i < 3; i++) {
        int n = i;
        assertThatThrownBy(() -> kv.set(KvKey.of("big", "again", n),
            new byte[DiskFiller.VALUE_BYTES])).isInstanceOf(KvUnavailableException.class);
      }
      // Another process reads meanwhile: the engine holds no write lock.
      assertThat(readInAnotherProcess(file)).isEqualTo(acknowledged);

      Files.delete(filler);
      kv.set(KvKey.of("after"), "written once space was freed");
      assertThat(kv.get(KvKey.of("after")).value()).isEqualTo("written once space was freed");
      assertThat(kv.get(KvKey.of("first")).value()).isEqualTo("written before the disk filled");
      assertThat(DiskFiller.entries(kv)).isEqualTo(acknowledged);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("pragma integrity_check")) {
      assertThat(r.getString(1)).isEqualTo("ok");
    }
  }

  private static int readInAnotherProcess(String file) throws Exception {
    Process child = ChildJvm.start(ChildReader.class, file);
    if (!child.waitFor(60, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      throw new AssertionError("the reading process hung");
    }
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as(out).isZero();
    return Integer.parseInt(out.strip().lines().reduce((a, b) -> b).orElseThrow());
  }

  /** A child process: opens the file and prints how many {@code ["big", …]} entries it has. */
  public static final class ChildReader {
    private ChildReader() {}

    public static void main(String[] args) throws IOException {
      try (Kv kv = Kv.open(args[0])) {
        System.out.println(DiskFiller.entries(kv));
      }
    }
  }
}
