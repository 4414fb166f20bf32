package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What killed runs left beside a target, removed only when their process is gone. */
class LeftoversTest {
  /** A process id no Linux machine hands out (pid_max is at most 2^22). */
  private static final long GONE = 999_999_999L;

  @TempDir Path dir;

  @Test
  void leftoversOfGoneProcesses_areRemoved_filesDirectoriesAndTheirSqliteLogs() throws Exception {
    long self = ProcessHandle.current().pid();
    Files.writeString(dir.resolve("app.sqlite3.restoring-" + GONE), "x");
    Files.writeString(dir.resolve("app.sqlite3.restoring-" + GONE + "-wal"), "x");
    Files.writeString(dir.resolve("app.sqlite3.restoring-" + GONE + "-shm"), "x");
    Files.createDirectories(dir.resolve("app.sqlite3.restoring-" + (GONE + 1)).resolve("b/c"));
    Files.writeString(dir.resolve("app.sqlite3.restoring-" + (GONE + 1)).resolve("b/c/d"), "x");
    // Kept: a running process's (this one's), other tags, other targets, the target itself.
    Files.writeString(dir.resolve("app.sqlite3.restoring-" + self), "x");
    Files.writeString(dir.resolve("app.sqlite3.partial-" + GONE), "x");
    Files.writeString(dir.resolve("app.sqlite3.old.restoring-" + GONE), "x");
    Files.writeString(dir.resolve("app.sqlite3.restoring-12x"), "x");
    Files.writeString(dir.resolve("app.sqlite3"), "x");

    StringWriter said = new StringWriter();
    new Leftovers(dir.resolve("app.sqlite3"), "restoring").removeStale(new PrintWriter(said,
        true));

    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "app.sqlite3.restoring-" + self, "app.sqlite3.partial-" + GONE,
          "app.sqlite3.old.restoring-" + GONE, "app.sqlite3.restoring-12x", "app.sqlite3");
    }
    assertThat(said.toString().lines()).hasSize(2).allMatch(l -> l.startsWith("removed "))
        .anyMatch(l -> l.contains("restoring-" + GONE + ", left by an earlier run"));
  }

  @Test
  void ours_carriesThisProcessesId_besideTheTarget() {
    assertThat(new Leftovers(dir.resolve("x.ndjson"), "partial").ours())
        .isEqualTo(dir.resolve("x.ndjson.partial-" + ProcessHandle.current().pid()));
  }

  @Test
  void aTargetInADirectoryThatDoesNotExist_hasNoLeftovers() {
    StringWriter said = new StringWriter();
    new Leftovers(dir.resolve("missing/x.ndjson"), "partial").removeStale(new PrintWriter(said));
    assertThat(said.toString()).isEmpty();
  }
}
