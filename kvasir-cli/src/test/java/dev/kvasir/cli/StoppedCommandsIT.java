package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch} and {@code listen} run until stopped. SIGTERM (what a service manager sends)
 * stops them as they stop themselves: they close their database and exit 0. The JVM's default
 * ended them at once with 143, the database open: a watched Deno file kept the {@code -wal} and
 * {@code -shm} that the read-only open had made beside it.
 */
class StoppedCommandsIT {
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
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
        try {
          return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
          return e.toString();
        }
      });
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8));
      assertThat(out.readLine()).as(command + " running").isNotNull();
      assertThat(logFiles()).as("open").isNotEmpty();
      // SIGTERM alone, as a service manager sends it. Process.destroy() also closed this
      // side's pipes, so that a command still printing its first emission failed on its
      // output (141) before the signal was handled.
      p.toHandle().destroy();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(command + ": " + err.get()).isZero();
      assertThat(logFiles()).as(command + " closed the database").isEmpty();
    }
  }

  private List<String> logFiles() throws Exception {
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith("-wal") || n.endsWith("-shm")).toList();
    }
  }
}
