package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.WatchStream;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.testkit.ChildJvm;
import dev.kvasir.value.KvU64;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three Kvasir instances, each in a JVM of its own, on one PostgreSQL database, plus this JVM
 * as a fourth: exact check-and-set counts, watches that see the other processes' writes, and
 * one queue shared by all of them that loses nothing when one process is killed.
 */
class PostgresMultiInstanceIT {
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    processes.forEach(Process::destroyForcibly);
  }

  private Process start(String... args) throws Exception {
    Process p = ChildJvm.start(InstanceWorker.class, args);
    processes.add(p);
    return p;
  }

  /** Everything a process printed, once it ended. */
  private static CompletableFuture<String> output(Process p) {
    return Blocking.call(() -> {
      try {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (java.io.IOException e) {
        return e.toString();
      }
    });
  }

  private static String url(String schema) {
    return TestPostgres.url() + "?schema=" + schema;
  }

  @Test
  void threeProcesses_checkAndSetOneCounter_exactCount_andEachSeesTheOthersWritesByWatch()
      throws Exception {
    String url = url(TestPostgres.freshSchema("multi"));
    int each = 400;
    try (Kv kv = Kv.open(url);
        WatchStream watch = kv.watch(List.of(KvKey.of("done", "a")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      List<Process> children = List.of(
          start(url, "a", "cas", String.valueOf(each), "b", "c"),
          start(url, "b", "cas", String.valueOf(each), "a", "c"),
          start(url, "c", "cas", String.valueOf(each), "a", "b"));
      List<CompletableFuture<String>> outputs = children.stream()
          .map(PostgresMultiInstanceIT::output).toList();
      // This JVM hears process a's write through LISTEN/NOTIFY.
      assertThat(watch.next().get(0).value()).isEqualTo(true);
      for (int i = 0; i < children.size(); i++) {
        assertThat(children.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = outputs.get(i).get();
        assertThat(children.get(i).exitValue()).as(out).isZero();
        assertThat(out).as(out).contains("counted").contains("saw ");
      }
      assertThat(kv.get(KvKey.of("counter")).value()).isEqualTo(KvU64.of(3L * each));
    }
  }

  @Test
  void sharedQueue_oneProcessKilledMidWay_everyMessageIsHandled() throws Exception {
    String schema = TestPostgres.freshSchema("multi");
    String url = url(schema);
    int messages = 300;
    long deadline;
    try (Kv kv = Kv.open(url)) {
      List<Process> children = new ArrayList<>();
      for (String name : List.of("a", "b", "c")) {
        Process p = start(url, name, "queue");
        children.add(p);
        BufferedReader r = new BufferedReader(
            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(r.readLine()).isEqualTo("listening");
      }
      for (int i = 0; i < messages; i++) {
        kv.enqueue((long) i);
      }
      // Kill one as soon as it has handled a few: it dies holding a message mid-way.
      deadline = System.currentTimeMillis() + 60_000;
      while (handledBy(kv, "a") < 10 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      children.get(0).destroyForcibly().waitFor();
      deadline = System.currentTimeMillis() + 90_000;
      while (handled(kv).size() < messages && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      List<KvEntry> handled = handled(kv);
      assertThat(handled).hasSize(messages);
      assertThat(handled.stream().map(KvEntry::value).distinct())
          .as("every process took messages").contains("a", "b", "c");
    }
    // The killed process's message went back to the queue when its lease ran out, and was
    // finished by another: nothing stays queued or running.
    deadline = System.currentTimeMillis() + 30_000;
    while (leftInQueueTables(schema) > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    assertThat(leftInQueueTables(schema)).isZero();
  }

  private static long leftInQueueTables(String schema) throws Exception {
    try (var c = TestPostgres.admin(); var s = c.createStatement();
        var r = s.executeQuery("select (select count(*) from " + schema + ".queue)"
            + " + (select count(*) from " + schema + ".queue_running)")) {
      r.next();
      return r.getLong(1);
    }
  }

  private static List<KvEntry> handled(Kv kv) {
    List<KvEntry> out = new ArrayList<>();
    kv.list(ListSelector.prefix(KvKey.of("handled"))).forEach(out::add);
    return out;
  }

  private static long handledBy(Kv kv, String name) {
    return handled(kv).stream().filter(e -> name.equals(e.value())).count();
  }
}
