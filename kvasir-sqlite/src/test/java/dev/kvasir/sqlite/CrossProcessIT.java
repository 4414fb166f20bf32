package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.QueueListener;
import dev.kvasir.WatchStream;
import dev.kvasir.testkit.ChildJvm;
import dev.kvasir.value.KvU64;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watches and queues across processes on one file (issue: Deno only notifies inside one
 * process; Kvasir also hears other processes, see {@link ForeignCommits}).
 */
class CrossProcessIT {
  @TempDir Path dir;
  private final List<Process> children = new ArrayList<>();

  @AfterEach
  void killChildren() throws InterruptedException {
    for (Process p : children) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Process child(Class<?> main, String... args) throws Exception {
    Process p = ChildJvm.start(main, args);
    children.add(p);
    return p;
  }

  private static void awaitLine(Process p, String line) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
    for (String l; (l = out.readLine()) != null; ) {
      if (l.equals(line)) {
        return;
      }
    }
    throw new AssertionError("child ended without printing " + line);
  }

  private String createFile(String name) {
    String file = dir.resolve(name).toString();
    try (Kv kv = Kv.open(file)) {
      kv.set(KvKey.of("created"), true);
    }
    return file;
  }

  @Test
  void get_seesAnotherProcesssCommitAtOnce_thoughReadersKeepTheirSnapshot() throws Exception {
    String file = createFile("read.sqlite3");
    KvKey key = KvKey.of("w");
    try (Kv kv = Kv.open(file)) {
      // Reads without pause, so that no reader connection is idle long enough to let go of
      // its snapshot while the child commits (docs/sqlite.md §9).
      AtomicBoolean reading = new AtomicBoolean(true);
      Thread reader = new Thread(() -> {
        while (reading.get()) {
          kv.get(key);
        }
      });
      reader.start();
      try {
        Object before = null;
        for (int round = 0; round < 3; round++) {
          Process writer = child(ChildWriter.class, file, "sets", "1", "0");
          assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
          assertThat(writer.exitValue()).isZero();
          KvEntry e = kv.get(key);
          assertThat(e.exists()).as("round %d reads the child's commit", round).isTrue();
          assertThat(e.versionstamp()).as("round %d reads the child's commit", round)
              .isNotEqualTo(before);
          before = e.versionstamp();
        }
      } finally {
        reading.set(false);
        reader.join();
      }
    }
  }

  @Test
  void watch_hearsEveryCommitOfAnotherProcess_upToTheLast() throws Exception {
    String file = createFile("watch.sqlite3");
    int n = 40;
    List<Long> delays = new ArrayList<>();
    try (Kv kv = Kv.open(file); WatchStream watch = kv.watch(List.of(KvKey.of("w")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      Process writer = child(ChildWriter.class, file, "sets", String.valueOf(n), "50");
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        while (true) {
          KvEntry e = watch.next().get(0);
          @SuppressWarnings("unchecked")
          Map<String, Double> v = (Map<String, Double>) e.value();
          delays.add(System.currentTimeMillis() - v.get("sentAt").longValue());
          if (v.get("i") == n - 1) {
            return;
          }
        }
      });
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    Collections.sort(delays);
    // Reported, not asserted (no timing assertions in tests): the issue asks for <= 100 ms.
    System.out.printf("cross-process watch: %d emissions for %d commits, delay median %d ms,"
        + " max %d ms%n", delays.size(), n, delays.get(delays.size() / 2),
        delays.get(delays.size() - 1));
  }

  @Test
  void watch_seesAnotherProcessesKeyExpire() throws Exception {
    String file = createFile("expiry.sqlite3");
    try (Kv kv = Kv.open(file); WatchStream watch = kv.watch(List.of(KvKey.of("e")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      Process writer = child(ChildWriter.class, file, "expiring", "1500");
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
        KvEntry seen = watch.next().get(0);
        if (seen.exists()) {
          assertThat(seen.value()).isEqualTo("soon gone");
          seen = watch.next().get(0);
        }
        assertThat(seen.exists()).isFalse();
      });
      // The sweep removed the row; it is not only hidden by the expiry filter.
      try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
          var r = c.createStatement().executeQuery("select count(*) from kv")) {
        assertThat(r.getInt(1)).isEqualTo(1); // ["created"]
      }
    }
  }

  @Test
  void queue_listenersInTwoProcessesShareTheWork_eachMessageHandledOnce() throws Exception {
    String file = createFile("queue.sqlite3");
    Process a = child(QueueWorker.class, file, "a", "handle");
    Process b = child(QueueWorker.class, file, "b", "handle");
    awaitLine(a, "listening");
    awaitLine(b, "listening");
    int n = 200;
    try (Kv kv = Kv.open(file)) {
      for (int i = 0; i < n; i++) {
        kv.enqueue((double) i);
      }
      Map<KvKey, Object> by = awaitAll(kv, n, Duration.ofSeconds(60));
      for (int i = 0; i < n; i++) {
        assertThat(kv.get(KvKey.of("handled", (double) i)).value()).as("message %d", i)
            .isEqualTo(KvU64.of(1));
      }
      assertThat(by.values()).as("both workers took messages").contains("a", "b");
    }
  }

  /** Waits until n messages are recorded under ["by"]; returns ["by", id] → worker. */
  private static Map<KvKey, Object> awaitAll(Kv kv, int n, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Map<KvKey, Object> by = new HashMap<>();
      kv.list(ListSelector.prefix(KvKey.of("by"))).forEach(e -> by.put(e.key(), e.value()));
      if (by.size() >= n) {
        return by;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + by.size() + " of " + n + " messages handled");
      }
      Thread.sleep(100);
    }
  }

  @Test
  void queue_consumerKilledMidHandler_messageComesBackToAnotherAfterItsLease() throws Exception {
    String file = createFile("crash.sqlite3");
    Process doomed = child(QueueWorker.class, file, "doomed", "hang");
    awaitLine(doomed, "listening");
    try (Kv kv = Kv.open(file)) {
      kv.enqueue(7.0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!kv.get(KvKey.of("started", 7.0)).exists()) {
        assertThat(System.nanoTime()).as("the doomed worker took the message").isLessThan(deadline);
        Thread.sleep(50);
      }
      doomed.destroyForcibly(); // SIGKILL: no finally block, no lease release
      assertThat(doomed.waitFor(10, TimeUnit.SECONDS)).isTrue();
      long killedAt = System.nanoTime();
      Process rescuer = child(QueueWorker.class, file, "rescuer", "handle");
      awaitLine(rescuer, "listening");
      assertThat(awaitAll(kv, 1, Duration.ofSeconds(60))).containsEntry(KvKey.of("by", 7.0), "rescuer");
      System.out.printf("killed consumer's message redelivered after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt));
      Thread.sleep(500); // a duplicate delivery would show up as a second count
      assertThat(kv.get(KvKey.of("handled", 7.0)).value()).isEqualTo(KvU64.of(1));
      assertThat(kv.list(ListSelector.prefix(KvKey.of("started"))).stream().count()).isEqualTo(1);
    }
  }

  /**
   * The listener's poll is an hour away: only the engine's watch of the file (ForeignCommits)
   * can wake it for the child's enqueue within the test's 10 s.
   */
  @Test
  void queue_aListenerHearsAnotherProcessesEnqueue() throws Exception {
    String file = createFile("enqueue.sqlite3");
    List<Object> received = Collections.synchronizedList(new ArrayList<>());
    long[] receivedAt = new long[1];
    try (Kv kv = Kv.open(file, SqliteOptions.defaults().queuePoll(Duration.ofHours(1)).build());
        QueueListener listener = kv.listenQueue(m -> {
          receivedAt[0] = System.nanoTime();
          received.add(m);
        })) {
      long start = System.nanoTime();
      Process writer = child(ChildWriter.class, file, "enqueue", "from another process");
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
      long written = System.nanoTime();
      long deadline = written + TimeUnit.SECONDS.toNanos(10);
      while (received.isEmpty()) {
        assertThat(System.nanoTime()).isLessThan(deadline);
        Thread.sleep(5);
      }
      assertThat(received).containsExactly("from another process");
      System.out.printf("another process's enqueue received %d ms after starting it (a JVM"
          + " start, open, enqueue; the child exited after %d ms)%n",
          TimeUnit.NANOSECONDS.toMillis(receivedAt[0] - start),
          TimeUnit.NANOSECONDS.toMillis(written - start));
    }
  }
}
