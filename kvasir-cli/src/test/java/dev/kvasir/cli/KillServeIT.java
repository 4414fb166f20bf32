package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.value.KvU64;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once writes between Kvasir's client and server: a Java client adds 1 to a counter
 * over and over while {@code kvasir serve} is killed with SIGKILL and started again, 20 times.
 * Some answers are lost with the server; the client retries those writes with the same
 * idempotency key, so each acknowledged increment counts once and no other does.
 */
class KillServeIT {
  private static final String TOKEN = "kill-test-token-0123";
  private static final int KILLS = 20;

  @TempDir Path dir;

  private Process serve(Path file, int port) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        // Each killed JVM leaves the SQLite driver's native library where it unpacked it
        // (docs/operations.md §8): in this test's directory, not the machine's /tmp.
        .toString(), "-Dorg.sqlite.tmpdir=" + dir, "-jar", Jar.JAR.toString(), "serve",
        "--db", file.toString(),
        "--port", String.valueOf(port), "--access-token", TOKEN)
        .redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line; (line = out.readLine()) != null; ) {
      if (line.startsWith("Kvasir serves")) {
        // Keep draining the output so that the server never blocks on a full pipe.
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "drain");
        drain.setDaemon(true);
        drain.start();
        return p;
      }
    }
    throw new AssertionError("kvasir serve ended before serving (exit " + p.waitFor() + ")");
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void killingTheServer20Times_underSumLoad_countsEveryAcknowledgedIncrementOnce()
      throws Exception {
    Path file = dir.resolve("counted.sqlite3");
    int port = freePort();
    Process server = serve(file, port);
    AtomicLong acknowledged = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    KvKey counter = KvKey.of("counter");
    ExecutorService clientThread = Executors.newSingleThreadExecutor();
    Future<?> client = clientThread.submit(() -> {
      try (Kv kv = Kv.open("http://127.0.0.1:" + port, KvOptions.defaults()
          .with("accessToken", TOKEN).with("remote.maxRetries", "40")
          .with("remote.retryDelayMs", "50"))) {
        while (!stop.get()) {
          if (kv.atomic().sum(counter, 1).commit().ok()) {
            acknowledged.incrementAndGet();
          }
        }
      }
    });
    Random random = new Random(20);
    try {
      for (int kill = 0; kill < KILLS; kill++) {
        Thread.sleep(1200 + random.nextInt(800)); // the client is back after its backoff
        server.destroyForcibly(); // SIGKILL: no draining, answers in flight are lost
        server.waitFor(30, TimeUnit.SECONDS);
        server = serve(file, port);
      }
      Thread.sleep(300);
    } finally {
      stop.set(true);
      client.get(120, TimeUnit.SECONDS);
      clientThread.shutdown();
      server.destroy();
      server.waitFor(30, TimeUnit.SECONDS);
    }
    System.out.printf("%d increments acknowledged across %d kills%n", acknowledged.get(), KILLS);
    assertThat(acknowledged.get()).as("the client made progress").isGreaterThan(KILLS);
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(counter).value()).isEqualTo(KvU64.of(acknowledged.get()));
    }
  }
}
