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
 * {@code kvasir restore} killed with SIGKILL half-way leaves nothing at its target
 * (docs/backup.md §3). It wrote the target in place, so a killed restore left a SQLite file
 * (or a {@code dag:} directory) holding the schema and no entries, which a server then opened
 * as if it were the restored database. The leftover it leaves is removed by the next restore.
 */
class KilledRestoreIT {
  private static final int ENTRIES = 60_000;

  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void backup() {
    kvasir = new Jar(dir);
    Entries.write("dag:" + dir.resolve("bk"), ENTRIES, "value ");
  }

  @Test
  void aRestoreKilledHalfWay_leavesNoDatabaseAtItsTarget_andTheNextOneCompletes()
      throws Exception {
    Process restore = kvasir.start("restore", "--from", "dag:bk", "--to", "restored.sqlite3");
    kvasir.awaitWriting(restore, "restored.sqlite3", -1);
    restore.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    assertThat(dir.resolve("restored.sqlite3")).doesNotExist();
    assertThat(leftovers()).as("the leftover, named for what it is").hasSize(1);
    Path aside = leftovers().get(0);

    Jar.Run again = kvasir.run("restore", "--from", "dag:bk", "--to", "restored.sqlite3");
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(entries("restored.sqlite3")).isEqualTo(ENTRIES);
    assertThat(leftovers()).as("the killed one's, removed by the next run").isEmpty();
    assertThat(again.err()).contains("removed " + aside + ", left by an earlier run");

    Process toDag = kvasir.start("restore", "--from", "dag:bk", "--to", "dag:restored-dag");
    kvasir.awaitWriting(toDag, "restored-dag", -1);
    toDag.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    assertThat(leftovers()).hasSize(1);
    Jar.Run dagAgain = kvasir.run("restore", "--from", "dag:bk", "--to", "dag:restored-dag");
    assertThat(dagAgain.exit()).as(dagAgain.err()).isZero();
    assertThat(entries("dag:" + dir.resolve("restored-dag"))).isEqualTo(ENTRIES);
    assertThat(leftovers()).isEmpty();
  }

  private long entries(String location) {
    return Entries.count(location.startsWith("dag:") ? location
        : dir.resolve(location).toString());
  }

  private List<Path> leftovers() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(Path::getFileName).filter(p -> p.toString().contains(".restoring-"))
          .filter(p -> !p.toString().endsWith("-wal") && !p.toString().endsWith("-shm"))
          .toList();
    }
  }
}
