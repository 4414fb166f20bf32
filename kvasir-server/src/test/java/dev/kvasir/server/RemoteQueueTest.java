package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.QueueListener;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
import dev.kvasir.connect.proto.QueueNext;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.DequeuedMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kvasir's queue extension of KV Connect (docs/kv-connect.md §10) where the contract cannot
 * look: a listener that goes away, a server that stops while its listeners handle messages, and
 * the server's limit on waiting polls.
 */
class RemoteQueueTest {
  private MemoryEngine engine;
  private KvServer server;

  @BeforeEach
  void start() {
    engine = MemoryEngine.open();
    server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .queueLease(Duration.ofMillis(500)).maxQueuePolls(1).start();
  }

  @AfterEach
  void stop() {
    server.close();
    engine.close();
  }

  /** A client that gives up on a stopped server quickly, so that closing it does not wait. */
  private Kv client() {
    return Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.maxRetries", "2").with("remote.retryDelayMs", "50"));
  }

  @Test
  void aListenerThatGoesAway_failsItsDelivery_onceItsLeaseRunsOut() throws Exception {
    try (Kv kv = client()) {
      kv.enqueue("retried", EnqueueOptions.defaults().backoffSchedule(List.of(100)));
      kv.enqueue("dead", EnqueueOptions.defaults().backoffSchedule(List.of())
          .keysIfUndelivered(List.of(KvKey.of("dead"))));
    }
    // A client takes both messages, then dies: it neither finishes nor renews them.
    try (RemoteEngine remote = RemoteEngine.open(RemoteConfig.from(server.url(),
        KvOptions.defaults().with("accessToken", Served.TOKEN)))) {
      DequeuedMessage first = remote.dequeueNext(Duration.ofSeconds(5));
      DequeuedMessage second = remote.dequeueNext(Duration.ofSeconds(5));
      assertThat(List.of(first.payload().decode(), second.payload().decode()))
          .containsExactlyInAnyOrder("retried", "dead");
    } // closing stops its renewals
    try (Kv kv = client()) {
      BlockingQueue<Object> got = new LinkedBlockingQueue<>();
      try (QueueListener listener = kv.listenQueue(got::add)) {
        assertThat(got.poll(10, TimeUnit.SECONDS)).as("after the lease and one backoff")
            .isEqualTo("retried");
      }
      assertThat(kv.get(KvKey.of("dead")).value()).as("no retry left: dead-lettered")
          .isEqualTo("dead");
      assertThat(server.queueLeases()).isZero();
    }
  }

  /** A message that may be tried only once, dead-lettered at {@code ["dead", name]}. */
  private static void enqueueOnce(Kv kv, String name) {
    kv.enqueue(name, EnqueueOptions.defaults().backoffSchedule(List.of())
        .keysIfUndelivered(List.of(KvKey.of("dead", name))));
  }

  @Test
  void stoppingTheServer_whileAListenerHandlesAMessage_letsItReportTheOutcome() throws Exception {
    try (Kv kv = client()) {
      enqueueOnce(kv, "handled during the stop");
    }
    CountDownLatch started = new CountDownLatch(1);
    BlockingQueue<Object> handled = new LinkedBlockingQueue<>();
    try (Kv kv = client(); QueueListener listener = kv.listenQueue(m -> {
      started.countDown();
      Thread.sleep(700); // still running when the server begins to stop
      handled.add(m);
    })) {
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      server.close(); // what SIGTERM does: drains for up to 10 s
      assertThat(handled.poll(0, TimeUnit.SECONDS)).as("handled before the server stopped")
          .isEqualTo("handled during the stop");
    }
    Kv local = Kv.of(engine);
    assertThat(local.get(KvKey.of("dead", "handled during the stop")).exists())
        .as("its one attempt succeeded: not dead-lettered").isFalse();
    BlockingQueue<Object> again = new LinkedBlockingQueue<>();
    try (QueueListener l = local.listenQueue(again::add)) {
      assertThat(again.poll(1500, TimeUnit.MILLISECONDS)).as("finished: gone").isNull();
    }
  }

  @Test
  void aMessageStillHandledWhenTheStopEnds_isDueAgain_withNoAttemptCounted() throws Exception {
    server.close();
    server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .drainTimeout(Duration.ofMillis(300)).start();
    try (Kv kv = client()) {
      enqueueOnce(kv, "outlives the stop");
    }
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Kv kv = client(); QueueListener listener = kv.listenQueue(m -> {
      started.countDown();
      release.await(10, TimeUnit.SECONDS);
    })) {
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      server.close(); // gives up waiting after 300 ms
      Kv local = Kv.of(engine);
      assertThat(local.get(KvKey.of("dead", "outlives the stop")).exists())
          .as("no attempt failed: not dead-lettered").isFalse();
      BlockingQueue<Object> again = new LinkedBlockingQueue<>();
      try (QueueListener l = local.listenQueue(again::add)) {
        assertThat(again.poll(1500, TimeUnit.MILLISECONDS)).as("due again at once")
            .isEqualTo("outlives the stop");
      }
      release.countDown();
    }
  }

  @Test
  void pollsBeyondTheServersLimit_areRefusedWith429() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest poll = HttpRequest.newBuilder(URI.create(server.url() + "/v2/kvasir/queue/next"))
        .header("authorization", "Bearer " + Served.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(
            QueueNext.newBuilder().setWaitMs(5_000).build().toByteArray())).build();
    Set<Thread> before = threadsWaitingInAPoll(); // an earlier test's, ending
    CompletableFuture<HttpResponse<String>> waiting =
        http.sendAsync(poll, HttpResponse.BodyHandlers.ofString());
    awaitAnotherPollWaiting(before);
    HttpResponse<String> refused = http.send(poll, HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("(1)");
    assertThat(waiting.get(10, TimeUnit.SECONDS).statusCode()).as("nothing came: 204")
        .isEqualTo(204);
  }

  /** The threads of servers in this JVM that wait in a poll for a message. */
  private static Set<Thread> threadsWaitingInAPoll() {
    Set<Thread> waiting = new HashSet<>();
    Thread.getAllStackTraces().forEach((thread, stack) -> {
      if (Stream.of(stack).anyMatch(f -> f.getClassName().equals(QueueGateway.class.getName())
          && f.getMethodName().equals("take"))) {
        waiting.add(thread);
      }
    });
    return waiting;
  }

  /** Waits until a thread not among {@code before} waits in a poll. */
  private static void awaitAnotherPollWaiting(Set<Thread> before) throws InterruptedException {
    for (int i = 0; i < 1000; i++) {
      if (!before.containsAll(threadsWaitingInAPoll())) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no poll waited on the server");
  }
}
