package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.SmallTmpfs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output that cannot be written (a full disk) is an error that gives its reason, never taken for
 * a reader gone away. Before, {@code list} and {@code export} exited 141 without a word, as on a
 * closed pipe, and {@code get}, {@code info} and the others 0 with their answer missing.
 */
class FullOutputIT {
  /** Linux's device on which every write fails with ENOSPC, as on a full disk. */
  private static final Path FULL = Path.of("/dev/full");
  private static final String NO_SPACE = "cannot write standard output: No space left on device";

  @TempDir Path dir;
  private Jar kvasir;

  @BeforeEach
  void jar() {
    kvasir = new Jar(dir);
  }

  @Test
  void everyCommandWhoseOutputCannotBeWritten_failsWithTheReason() throws Exception {
    assertThat(FULL).as("Linux's /dev/full").exists();
    assertThat(kvasir.run("set", "[\"k\"]", "1").exit()).isZero();
    for (List<String> command : List.of(List.of("get", "[\"k\"]"), List.of("list"),
        List.of("export"), List.of("count"), List.of("info"), List.of("set", "[\"j\"]", "2"),
        List.of("--help"), List.of("list", "--help"))) {
      Jar.Run run = kvasir.runInto(FULL, new byte[0], command.toArray(String[]::new));
      assertThat(run.exit()).as(command + ": " + run.err()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(run.err()).as(command.toString()).contains(NO_SPACE)
          .doesNotContain("Exception");
    }
    // A script on the shell's input stops at the first answer it cannot write, as on a closed
    // pipe, but says why.
    Jar.Run shell = kvasir.runInto(FULL, "get [\"k\"]\nset [\"after\"] 3\n"
        .getBytes(StandardCharsets.UTF_8), "shell");
    assertThat(shell.exit()).as(shell.err()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(shell.err()).contains(NO_SPACE);
    assertThat(kvasir.run("get", "[\"after\"]").exit()).as("no command after it")
        .isEqualTo(Kvasir.FAILED);
  }

  @Test
  void anImportOntoAFullDisk_saysWhereItStopped_andThatTheLineIsNotAtFault() throws Exception {
    // It said "fix the line", after a reason ending in two full stops.
    StringBuilder lines = new StringBuilder();
    String value = "x".repeat(3_000);
    for (int i = 0; i < 600; i++) {
      lines.append("{\"key\":[\"n\",").append(i).append("],\"value\":\"").append(value)
          .append("\"}\n");
    }
    Path input = Files.writeString(dir.resolve("big.ndjson"), lines);
    try (SmallTmpfs disk = SmallTmpfs.mount(dir.resolve("small"), "1m")) {
      Jar.Run run = kvasir.run("import", "--db", disk.path().resolve("kv.sqlite3").toString(),
          input.toString());
      assertThat(run.exit()).as(run.err()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(run.err()).contains("is full").contains("are imported")
          .contains("once the database takes writes again, run again with --skip ")
          .doesNotContain("fix the line").doesNotContain("..");
    }
  }

  @Test
  void anExportOntoAFullDisk_saysSo_andLeavesNoPartialFile() throws Exception {
    StringBuilder lines = new StringBuilder();
    String value = "x".repeat(3_000);
    for (int i = 0; i < 600; i++) { // 1.8 MB of NDJSON on a disk of 1 MiB
      lines.append("{\"key\":[\"n\",").append(i).append("],\"value\":\"").append(value)
          .append("\"}\n");
    }
    assertThat(kvasir.runWithInput(lines.toString().getBytes(StandardCharsets.UTF_8),
        "import", "-").exit()).isZero();
    try (SmallTmpfs disk = SmallTmpfs.mount(dir.resolve("small"), "1m")) {
      Path redirected = disk.path().resolve("redirected.ndjson");
      Jar.Run run = kvasir.runInto(redirected, new byte[0], "export");
      assertThat(run.exit()).as(run.err()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(run.err()).contains(NO_SPACE);
      Files.delete(redirected);

      Path named = disk.path().resolve("named.ndjson");
      run = kvasir.run("export", "--output", named.toString());
      assertThat(run.exit()).as(run.err()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(run.err()).contains("cannot write " + named + ": No space left on device");
      try (Stream<Path> left = Files.list(disk.path())) {
        assertThat(left).as("the partial file removed").isEmpty();
      }
    }
  }
}
