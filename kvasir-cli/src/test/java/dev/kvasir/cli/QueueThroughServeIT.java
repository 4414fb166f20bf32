package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.ChildJvm;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queues through {@code kvasir serve} (docs/kv-connect.md §10), with three listeners in
 * processes of their own: through one server on SQLite, and through two servers on one
 * PostgreSQL database. Every message is delivered; the message a killed listener held is
 * delivered again once its lease ran out; messages that always fail are retried per their
 * backoff schedule, then written to their dead-letter keys.
 */
class QueueThroughServeIT {
  private static final String TOKEN = "queue-token-0123456789";
  private static final int MESSAGES = 60;
  private static final int POISON = 2;
  private static final List<Integer> BACKOFF = List.of(200, 400);

  @TempDir Path dir;

  @Test
  void threeListeners_throughOneServer_onSqlite() throws Exception {
    try (ServeProcess serve = serve(dir.resolve("queue.sqlite3").toString())) {
      deliverEverything(List.of(serve.url(), serve.url(), serve.url()));
    }
  }

  @Test
  void threeListeners_throughTwoServers_onOnePostgresDatabase() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String db = "postgresql://postgres@localhost:" + pg.getPort() + "/postgres?schema=queues";
      try (ServeProcess one = serve(db); ServeProcess two = serve(db)) {
        deliverEverything(List.of(one.url(), two.url(), one.url()));
      }
    }
  }

  private ServeProcess serve(String db) throws IOException {
    return new ServeProcess(dir, Map.of(), "--db", db, "--port", "0", "--access-token", TOKEN,
        "--queue-lease", "2s");
  }

  /** Listeners on {@code urls}; the last one hangs on its fifth message and is killed. */
  private void deliverEverything(List<String> urls) throws Exception {
    try (Kv kv = Kv.open(urls.get(0), KvOptions.defaults().with("accessToken", TOKEN))) {
      for (int n = 0; n < MESSAGES; n++) {
        kv.enqueue(Map.of("n", n));
      }
      for (int p = 0; p < POISON; p++) {
        kv.enqueue(Map.of("n", 1000 + p, "poison", true), EnqueueOptions.defaults()
            .backoffSchedule(BACKOFF).keysIfUndelivered(List.of(KvKey.of("dead", p))));
      }
      List<Process> clients = new ArrayList<>();
      List<Path> files = new ArrayList<>();
      for (int i = 0; i < urls.size(); i++) {
        files.add(dir.resolve("client" + i + ".log"));
      }
      try {
        // The one that hangs starts first, alone, and hangs before the others start: started
        // together, the others took every message before it had its fifth on a busy machine,
        // and it never hung.
        int last = urls.size() - 1;
        Process hangs = client(urls.get(last), files.get(last), last, "4"); // hangs on the 5th
        clients.add(hangs);
        String hung = await(() -> lines(files.get(last)).stream()
            .filter(l -> l.startsWith("hung ")).findFirst().orElse(null));
        for (int i = 0; i < last; i++) {
          clients.add(client(urls.get(i), files.get(i), i));
        }
        hangs.destroyForcibly().waitFor(); // SIGKILL
        int hungMessage = Integer.parseInt(hung.substring("hung ".length()));

        Map<Integer, Integer> handled = await(() -> {
          Map<Integer, Integer> counts = handledCounts(files);
          boolean dead = kv.get(KvKey.of("dead", POISON - 1)).exists()
              && kv.get(KvKey.of("dead", 0)).exists();
          return counts.size() == MESSAGES && dead ? counts : null;
        });
        assertThat(handled.keySet()).as("every message delivered").hasSize(MESSAGES);
        assertThat(handled.values()).as("each handled once").containsOnly(1);
        assertThat(handled).containsKey(hungMessage); // by another listener, after the lease
        for (int p = 0; p < POISON; p++) {
          assertThat(kv.get(KvKey.of("dead", p)).value())
              .isEqualTo(Map.of("n", 1000.0 + p, "poison", true));
          int poison = 1000 + p;
          long attempts = files.stream().flatMap(f -> lines(f).stream())
              .filter(l -> l.equals("failed " + poison)).count();
          assertThat(attempts).as("one try and one per backoff interval")
              .isEqualTo(1 + BACKOFF.size());
        }
      } finally {
        for (Process c : clients) {
          c.destroyForcibly();
          c.waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
  }

  /** Starts a {@link QueueClient} listening through {@code url}, logging to {@code file}. */
  private Process client(String url, Path file, int number, String... hangAfter)
      throws IOException {
    List<String> args = new ArrayList<>(List.of(url, TOKEN, file.toString()));
    args.addAll(List.of(hangAfter));
    return ChildJvm.builder(QueueClient.class, args.toArray(String[]::new))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("client" + number + ".out").toFile()).start();
  }

  private static Map<Integer, Integer> handledCounts(List<Path> files) {
    Map<Integer, Integer> counts = new TreeMap<>();
    for (Path f : files) {
      for (String line : lines(f)) {
        if (line.startsWith("handled ")) {
          counts.merge(Integer.parseInt(line.substring("handled ".length())), 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  private static List<String> lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file) : List.of();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Polls {@code check} for up to 60 s until it answers something. */
  private static <T> T await(Supplier<T> check) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    T value = check.get();
    while (value == null && System.nanoTime() < deadline) {
      Thread.sleep(100);
      value = check.get();
    }
    assertThat(value).as("within 60 s").isNotNull();
    return value;
  }
}
