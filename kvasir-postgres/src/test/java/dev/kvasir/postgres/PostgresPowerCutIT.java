package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.KilledWriters;
import dev.kvasir.testkit.powercut.PowerCutFs;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power is cut under a PostgreSQL server and a process writing to it through Kvasir, ten
 * times over: the writer is killed, then every process of the server, whose data directory is
 * on a PowerCutFs; the cut keeps what PostgreSQL's syncs made stable and some of the rest, and
 * the server starts again on it, recovering from its write-ahead log. Every commit Kvasir
 * acknowledged must be there, none in part (KilledWriters). This is PostgreSQL's durability as
 * much as Kvasir's; Kvasir's part is to acknowledge a commit only once the server has made it
 * durable, whatever the server's {@code synchronous_commit} (docs/postgres.md §2, and
 * docs/power-cut.md §3). {@code -Dkilled.seed=N} replays the moments and what each cut kept.
 */
class PostgresPowerCutIT {
  @TempDir Path dir;

  private EmbeddedPostgres server;

  @Test
  void thePowerCutUnderServerAndWriter_losesNoAcknowledgedCommit_andHalfAppliesNone()
      throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    try (PowerCutFs disk = PowerCutFs.mount(dir.resolve("disk"))) {
      Path data = disk.path().resolve("data");
      server = TestPostgres.start(data, 0, true);
      int port = server.getPort();
      try (Connection c = server.getPostgresDatabase().getConnection();
          ResultSet r = c.createStatement().executeQuery("show fsync")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).as("the server syncs, else no test could tell").isEqualTo("on");
      }
      try {
        int[] committed = KilledWriters.killRepeatedly(TestPostgres.url(port), seed, random -> {
          killEveryProcessOf(data);
          String lost = disk.cutPower(random);
          server = TestPostgres.start(data, port, true);
          return lost;
        });
        assertThat(Arrays.stream(committed).sum()).as("commits over the writers").isPositive();
      } finally {
        killEveryProcessOf(data);
      }
    }
  }

  /**
   * Kills the server's processes at once, as a power cut stops them: the postmaster first, so
   * that it starts no process to replace those killed after it, then its children.
   */
  private static void killEveryProcessOf(Path data) throws IOException, InterruptedException {
    Path pidFile = data.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return;
    }
    long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.US_ASCII).get(0).trim());
    ProcessHandle postmaster = ProcessHandle.of(pid).orElse(null);
    if (postmaster == null) {
      return;
    }
    List<String> command = new ArrayList<>(List.of("kill", "-9", String.valueOf(pid)));
    List<ProcessHandle> children = postmaster.children().toList();
    children.forEach(c -> command.add(String.valueOf(c.pid())));
    new ProcessBuilder(command).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    postmaster.onExit().join();
    for (ProcessHandle c : children) {
      c.onExit().join();
    }
  }
}
