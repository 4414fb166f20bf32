package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir export --output FILE} killed with SIGKILL half-way leaves the {@code FILE} of
 * an earlier export as it was (docs/backup.md §7). It wrote {@code FILE} in place, so a killed
 * export left a shorter NDJSON file there, which reads as a whole export of fewer entries.
 */
class KilledExportIT {
  private static final int ENTRIES = 150_000;

  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void database() {
    kvasir = new Jar(dir);
    Entries.write(dir.resolve("app.sqlite3").toString(), ENTRIES,
        "a value long enough to take some writing ");
  }

  @Test
  void anExportKilledHalfWay_leavesTheEarlierFileAsItWas() throws Exception {
    Jar.Run first = kvasir.run("export", "--db", "app.sqlite3", "--start", "[\"k\", 0]",
        "--end", "[\"k\", 1]", "--output", "backup.ndjson");
    assertThat(first.exit()).as(first.err()).isZero();
    List<String> earlier = Files.readAllLines(dir.resolve("backup.ndjson"));
    assertThat(earlier).hasSize(1);

    Process export = kvasir.start("export", "--db", "app.sqlite3", "--output",
        "backup.ndjson");
    kvasir.awaitWriting(export, "backup.ndjson", 1_000);
    export.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    assertThat(Files.readAllLines(dir.resolve("backup.ndjson"))).isEqualTo(earlier);

    Jar.Run whole = kvasir.run("export", "--db", "app.sqlite3", "--output", "backup.ndjson");
    assertThat(whole.exit()).as(whole.err()).isZero();
    assertThat(Files.readAllLines(dir.resolve("backup.ndjson"))).hasSize(ENTRIES);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("backup.ndjson.partial-")))
          .as("the killed one's, removed by the next run").isEmpty();
    }
    assertThat(whole.err()).contains("backup.ndjson.partial-" + export.pid()
        + ", left by an earlier run");
  }
}
