package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.Blocking;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir serve} started before its PostgreSQL server, as Docker Compose and a booting
 * machine start them (docs/operations.md §2): it waits for the database, up to {@code
 * --db-wait}, instead of exiting at once; failures that waiting does not mend end it at once.
 */
class ServeDatabaseWaitIT {
  private static final String TOKEN = "waiting-for-the-database";

  @TempDir Path dir;

  @Test
  void aDatabaseThatComesUpAfterTheServer_isWaitedFor_andThenServed() throws Exception {
    int port = freePort();
    String db = "postgresql://postgres@localhost:" + port + "/postgres?schema=late";
    // The database comes up seconds after the server started; the server is up only then.
    CompletableFuture<EmbeddedPostgres> later = Blocking.call(() -> {
      try {
        Thread.sleep(3_000);
        return EmbeddedPostgres.builder().setPort(port).start();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    try (ServeProcess serve = new ServeProcess(dir, Map.of(), "--db", db, "--port", "0",
        "--access-token", TOKEN);
        EmbeddedPostgres pg = later.get(60, TimeUnit.SECONDS)) {
      assertThat(serve.errors()).as("it said why it waited")
          .anyMatch(l -> l.contains("The database is not reachable yet (cannot connect to")
              && l.contains("(--db-wait)"));
      try (Kv kv = Kv.open(serve.url(), KvOptions.defaults().with("accessToken", TOKEN))) {
        kv.set(KvKey.of("greeting"), "hello");
        assertThat(kv.get(KvKey.of("greeting")).value()).isEqualTo("hello");
      }
      assertThat(serve.stop()).isZero();
    }
  }

  @Test
  void aWaitThatRunsOut_orADatabaseThatWillNotCome_endsTheStartWithStatus3() throws Exception {
    Jar kvasir = new Jar(dir);
    String nobody = "postgresql://postgres@localhost:" + freePort() + "/postgres";
    Jar.Run gaveUp = kvasir.run("serve", "--db", nobody, "--access-token", TOKEN,
        "--port", "0", "--db-wait", "2s");
    assertThat(gaveUp.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(gaveUp.err()).contains("not reachable yet")
        .contains("after waiting 2 s for it; --db-wait sets how long");
    Jar.Run atOnce = kvasir.run("serve", "--db", nobody, "--access-token", TOKEN,
        "--port", "0", "--db-wait", "0");
    assertThat(atOnce.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(atOnce.err()).startsWith("error: cannot connect to").doesNotContain("yet");

    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      // No such database: no wait mends that, so the default minute is not spent on it.
      long start = System.nanoTime();
      Jar.Run missing = kvasir.run("serve", "--db", "postgresql://postgres@localhost:"
          + pg.getPort() + "/nosuchdb", "--access-token", TOKEN, "--port", "0");
      assertThat(missing.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(missing.err()).contains("\"nosuchdb\" does not exist")
          .doesNotContain("not reachable yet");
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(30));
    }
  }

  @Test
  void sigtermWhileWaiting_stopsWithStatus0() throws Exception {
    Process serve = new Jar(dir).start("serve", "--db", "postgresql://postgres@localhost:"
        + freePort() + "/postgres", "--access-token", TOKEN, "--port", "0");
    BufferedReader err = new BufferedReader(
        new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = err.readLine()) != null && !line.contains("not reachable yet")) {
      // the banner of the JVM, if any
    }
    assertThat(line).as("the warning of the wait").isNotNull();
    // SIGTERM by kill(1): Process.destroy would close the streams this test reads.
    assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(serve.pid())).start()
        .waitFor()).isZero();
    StringBuilder rest = new StringBuilder();
    while ((line = err.readLine()) != null) {
      rest.append(line).append('\n');
    }
    assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(serve.exitValue()).isZero();
    assertThat(rest.toString()).endsWith("stopped\n");
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
