package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.ByteString;
import dev.kvasir.AsyncKv;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
import dev.kvasir.connect.RemoteException;
import dev.kvasir.connect.proto.AtomicWrite;
import dev.kvasir.connect.proto.KvValue;
import dev.kvasir.connect.proto.Mutation;
import dev.kvasir.connect.proto.MutationType;
import dev.kvasir.connect.proto.ValueEncoding;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the server refuses, and how: status, message, and nothing written. */
class KvServerTest {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private Served served;
  private Kv kv;

  @BeforeEach
  void start() {
    served = new Served(MemoryEngine.open());
    kv = Kv.of(served.backing);
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private HttpResponse<String> post(String path, String token, byte[] body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(served.server.url() + path))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      b.header("authorization", "Bearer " + token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] setA() {
    return AtomicWrite.newBuilder().addMutations(Mutation.newBuilder()
        .setKey(ByteString.copyFrom(KvKey.of("a").encode()))
        .setMutationType(MutationType.M_SET)
        .setValue(KvValue.newBuilder().setEncoding(ValueEncoding.VE_BYTES)
            .setData(ByteString.copyFrom(new byte[] {1}))))
        .build().toByteArray();
  }

  @Test
  void metadata_negotiatesTheHighestVersion_withTheFiveFields() throws Exception {
    var r = post("/", Served.TOKEN, "{\"supportedVersions\":[1,2,3]}".getBytes());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).contains("application/json");
    assertThat(r.body()).startsWith("{\"version\":3,\"databaseId\":"
        + "\"00000000-0000-0000-0000-000000000000\",\"endpoints\":[{\"url\":\"/v2\","
        + "\"consistency\":\"strong\"}],\"token\":\"" + Served.TOKEN + "\",\"expiresAt\":");
    var v1 = post("/", Served.TOKEN, "{\"supportedVersions\":[1]}".getBytes());
    assertThat(v1.body()).contains("\"url\":\"" + served.server.url() + "/v2\"");
  }

  @Test
  void missingOrWrongToken_is401_andWritesNothing() throws Exception {
    assertThat(post("/v2/atomic_write", null, setA()).statusCode()).isEqualTo(401);
    var wrong = post("/v2/atomic_write", "x" + Served.TOKEN, setA());
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).isEqualTo("Invalid access token.");
    assertThat(post("/", "nope", "{\"supportedVersions\":[3]}".getBytes()).statusCode())
        .isEqualTo(401);
    assertThat(kv.get(KvKey.of("a")).exists()).isFalse();
    assertThat(post("/v2/atomic_write", Served.TOKEN, setA()).statusCode()).isEqualTo(200);
    assertThat(kv.get(KvKey.of("a")).value()).isEqualTo(new byte[] {1});
  }

  @Test
  void malformedInput_is400_withAReadableMessage() throws Exception {
    var garbage = post("/v2/atomic_write", Served.TOKEN, new byte[] {(byte) 0xff, 0x01});
    assertThat(garbage.statusCode()).isEqualTo(400);
    assertThat(garbage.body()).startsWith("Request protobuf is invalid: ");
    var json = post("/", Served.TOKEN, "{not json".getBytes());
    assertThat(json.statusCode()).isEqualTo(400);
    assertThat(json.body()).startsWith("The metadata request is not valid JSON");
    var trailing = post("/", Served.TOKEN, "{\"supportedVersions\":[3]} {}".getBytes());
    assertThat(trailing.statusCode()).isEqualTo(400);
    assertThat(trailing.body()).isEqualTo("The metadata request has more text after its JSON.");
    var noVersion = post("/", Served.TOKEN, "{\"supportedVersions\":[7]}".getBytes());
    assertThat(noVersion.statusCode()).isEqualTo(400);
    var longKey = AtomicWrite.newBuilder().addMutations(Mutation.newBuilder()
        .setKey(ByteString.copyFrom(new byte[2049])).setMutationType(MutationType.M_DELETE))
        .build().toByteArray();
    var tooLong = post("/v2/atomic_write", Served.TOKEN, longKey);
    assertThat(tooLong.statusCode()).isEqualTo(400);
    assertThat(tooLong.body()).isEqualTo("A key exceeds the key size limit.");
  }

  @Test
  void unknownPath_is404_oversizedBody_is413() throws Exception {
    var unknown = post("/v2/nothing", Served.TOKEN, new byte[0]);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).isEqualTo("Resource not found.");
    // Only the headers are sent: the refusal must come from the declared length, before the
    // body is read. (A client still sending a large body can see the close as a reset.)
    try (Socket socket = new Socket("127.0.0.1", served.server.port())) {
      socket.getOutputStream().write(("POST /v2/atomic_write HTTP/1.1\r\nHost: localhost\r\n"
          + "Authorization: Bearer " + Served.TOKEN + "\r\nContent-Length: 5242880\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      String reply = new String(socket.getInputStream().readAllBytes(),
          StandardCharsets.UTF_8);
      assertThat(reply).startsWith("HTTP/1.1 413 ").endsWith("The request body is too large:"
          + " 5242880 bytes (max 4194304).");
    }
    var get = HTTP.send(HttpRequest.newBuilder(URI.create(served.server.url() + "/")).GET()
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
  }

  @Test
  void speaksH2c_byPriorKnowledge_asDenoDoes_andByUpgrade() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", served.server.port())) {
      socket.setSoTimeout(10_000);
      // The client preface, then an empty SETTINGS frame (RFC 9113 §3.4).
      socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
      byte[] frameHeader = socket.getInputStream().readNBytes(9);
      assertThat(frameHeader[3]).as("the server's first frame is SETTINGS").isEqualTo((byte) 4);
    }
    HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    var upgraded = h2.send(HttpRequest.newBuilder(URI.create(served.server.url() + "/"))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(upgraded.version()).isEqualTo(HttpClient.Version.HTTP_2);
  }

  @Test
  void idleAndSlowConnections_areClosed() throws Exception {
    try (KvServer quick = KvServer.builder(served.backing).accessToken(Served.TOKEN).port(0)
        .idleTimeout(Duration.ofMillis(300)).start()) {
      for (String sent : new String[] {"", "POST / HTTP/1.1\r\nHost: local"}) {
        try (Socket socket = new Socket("127.0.0.1", quick.port())) {
          socket.setSoTimeout(10_000); // far above the idle timeout: a hang fails the test
          socket.getOutputStream().write(sent.getBytes(StandardCharsets.US_ASCII));
          socket.getInputStream().readAllBytes(); // returns once the server closed
        }
      }
    }
  }

  @Test
  void remoteEngine_fetchesTheMetadataAgain_beforeItExpires() throws Exception {
    // The client refreshes 10 s before expiresAt, so a 12 s lifetime is due after 2 s.
    try (KvServer shortLived = withMetadataLifetime(served.backing, Duration.ofSeconds(12));
        RemoteEngine remote = remoteOf(shortLived)) {
      Instant first = remote.metadata().expiresAt();
      Kv.of(remote).get(KvKey.of("a"));
      assertThat(remote.metadata().expiresAt()).as("not due yet").isEqualTo(first);
      Thread.sleep(2_500);
      Kv.of(remote).get(KvKey.of("a")); // starts the refresh, which runs beside it
      assertThat(refreshedWithin(remote, first, Duration.ofSeconds(10))).isAfter(first);
    }
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void remoteEngine_refreshThatFails_whileTheMetadataIsValid_holdsUpNoRequest_andIsRetried()
      throws Exception {
    // The front fails the exchange alone; data calls go straight to the server. A request
    // that waited for the failing exchange would fail with it.
    try (KvServer shortLived = withMetadataLifetime(served.backing, Duration.ofSeconds(12));
        MetadataFront front = new MetadataFront(shortLived.url());
        RemoteEngine remote = RemoteEngine.open(RemoteConfig.from(front.url(), KvOptions
            .defaults().with("accessToken", Served.TOKEN).with("remote.maxRetries", "0")))) {
      Instant first = remote.metadata().expiresAt();
      front.fail();
      Thread.sleep(2_500); // due: the client refreshes 10 s before expiresAt
      try (CapturedStderr logged = new CapturedStderr()) {
        Kv remoteKv = Kv.of(remote);
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        for (int i = 0; front.refused() < 2 && System.nanoTime() - end < 0; i++) {
          remoteKv.set(KvKey.of("k"), "v" + i);
          assertThat(remoteKv.get(KvKey.of("k")).value()).isEqualTo("v" + i);
          Thread.sleep(20);
        }
        assertThat(front.refused()).as("the failed exchange, then a later request's")
            .isGreaterThanOrEqualTo(2);
        assertThat(remote.metadata().expiresAt()).as("the metadata in use").isEqualTo(first);
        assertThat(logged.text())
            .contains("Cannot refresh the KV Connect metadata of " + front.url())
            .contains("status 503: the metadata endpoint is down");
        front.heal();
        long healed = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!remote.metadata().expiresAt().isAfter(first) && System.nanoTime() - healed < 0) {
          remoteKv.get(KvKey.of("k")); // tries again, once no failing exchange is in flight
          Thread.sleep(20);
        }
        assertThat(remote.metadata().expiresAt()).as("refreshed once healed").isAfter(first);
      }
    }
  }

  /** A second server, on {@code engine}, whose metadata lives {@code lifetime}. */
  private static KvServer withMetadataLifetime(KvEngine engine, Duration lifetime) {
    return KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .metadataLifetime(lifetime).start();
  }

  private static RemoteEngine remoteOf(KvServer server) {
    return RemoteEngine.open(RemoteConfig.from(server.url(),
        KvOptions.defaults().with("accessToken", Served.TOKEN)));
  }

  /** The metadata's expiry once it is later than {@code first}, or the last seen at the end. */
  private static Instant refreshedWithin(RemoteEngine remote, Instant first, Duration limit)
      throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    Instant now = remote.metadata().expiresAt();
    while (!now.isAfter(first) && System.nanoTime() - end < 0) {
      Thread.sleep(20);
      now = remote.metadata().expiresAt();
    }
    return now;
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
  void remoteEngine_refreshesTheMetadata_withoutBlockingTheThreadThatReadsAnswers()
      throws Exception {
    // Each get is started by the callback of the one before, on the client's thread that read
    // its answer (kv.async(Runnable::run)). A refresh that waited there for its own answer
    // would never get it: the chain stopped for good once the refresh came due.
    try (HeldReads held = new HeldReads();
        KvServer shortLived = withMetadataLifetime(held, Duration.ofSeconds(12));
        RemoteEngine remote = remoteOf(shortLived)) {
      Instant first = remote.metadata().expiresAt();
      assertThat(chainOfGets(remote, held, Duration.ofSeconds(3))).as("gets in the chain")
          .isPositive();
      assertThat(refreshedWithin(remote, first, Duration.ofSeconds(10))).isAfter(first);
    }
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
  void remoteEngine_expiredMetadata_requestsWaitForTheExchange_withoutHoldingAThread()
      throws Exception {
    // A 1 s lifetime is always due for refresh and soon expired, so requests from the client's
    // own thread find an exchange under way and wait for it without blocking.
    try (HeldReads held = new HeldReads();
        KvServer shortLived = withMetadataLifetime(held, Duration.ofSeconds(1));
        RemoteEngine remote = remoteOf(shortLived)) {
      Instant first = remote.metadata().expiresAt();
      Thread.sleep(1_200);
      assertThat(Instant.now()).as("expired").isAfter(first);
      assertThat(chainOfGets(remote, held, Duration.ofSeconds(2))).as("gets in the chain")
          .isPositive();
      assertThat(remote.metadata().expiresAt()).isAfter(first);
    }
  }

  /**
   * Gets one after another for {@code during}, each started by the callback of the one before
   * on the client's thread that read its answer; how many, once the last is answered. The
   * server holds the first answer until the first callback is attached, so that the chain
   * starts on the client's thread, not on this one, and stays there.
   */
  private static int chainOfGets(RemoteEngine remote, HeldReads held, Duration during)
      throws Exception {
    CompletableFuture<Integer> chain = new CompletableFuture<>();
    getsUntil(Kv.of(remote).async(Runnable::run), System.nanoTime() + during.toNanos(), 0, chain);
    held.release();
    return chain.get(20, TimeUnit.SECONDS);
  }

  /** Gets one after another, each from the callback of the one before, until {@code end}. */
  private static void getsUntil(AsyncKv kv, long end, int done,
      CompletableFuture<Integer> chain) {
    kv.get(KvKey.of("a")).whenComplete((entry, error) -> {
      if (error != null) {
        chain.completeExceptionally(error);
      } else if (System.nanoTime() - end >= 0) {
        chain.complete(done + 1);
      } else {
        getsUntil(kv, end, done + 1, chain);
      }
    });
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
  void remoteEngine_blockingCallInACallbackOnItsOwnThread_failsInsteadOfWaitingForever()
      throws Exception {
    assertBlockingCallInACallbackFails(remote -> remote.get(KvKey.of("b")));
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
  void remoteEngine_blockingWriteInACallbackOnItsOwnThread_failsInsteadOfWaitingForever()
      throws Exception {
    // The blocking write waits for the asynchronous one (docs/atomic.md §9): the same trap.
    assertBlockingCallInACallbackFails(remote -> remote.set(KvKey.of("b"), 1));
  }

  /**
   * docs/async.md §2 forbids it: the blocking call would wait on the very thread that reads its
   * answer. It has to fail at once, and the client has to work afterwards. The server holds the
   * first answer until the callback is attached, so that the callback runs on the client's
   * thread that reads the answer, never on this one.
   */
  private static void assertBlockingCallInACallbackFails(Function<Kv, Object> blocking)
      throws Exception {
    try (HeldReads held = new HeldReads();
        KvServer server = KvServer.builder(held).accessToken(Served.TOKEN).port(0).start();
        Kv remote = Kv.of(remoteOf(server))) {
      CompletableFuture<Object> outcome = remote.async(Runnable::run).get(KvKey.of("a"))
          .thenApply(first -> blocking.apply(remote))
          .handle((entry, error) -> error != null ? error : entry);
      held.release();
      Object answer = outcome.get(60, TimeUnit.SECONDS);
      assertThat(answer).isInstanceOf(CompletionException.class);
      assertThat(((Throwable) answer).getCause()).isInstanceOf(KvException.class)
          .hasMessageContaining("blocking KV Connect call was made in a callback");
      assertThat(remote.get(KvKey.of("a")).exists()).as("the client works afterwards").isFalse();
    }
  }

  @Test
  void remoteEngine_wrongToken_failsAtOpen_withoutRetrying() {
    assertThatThrownBy(() -> Kv.open(served.server.url(),
        KvOptions.defaults().with("accessToken", "wrong-token-123456")))
        .isInstanceOf(RemoteException.class).hasMessageContaining("status=401")
        .hasMessageContaining("Invalid access token.");
  }

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
  void remoteEngine_serverThatNeverAnswers_isGivenUpAtTheDeadline_blockingAndAsync()
      throws Exception {
    // Reads are held, so each attempt would wait out its 30 s time limit, ten retries over.
    try (HeldReads held = new HeldReads();
        KvServer silent = KvServer.builder(held).accessToken(Served.TOKEN).port(0).start();
        Kv kv = Kv.open(silent.url(), KvOptions.defaults().with("accessToken", Served.TOKEN)
            .with("remote.deadlineMs", "500"))) {
      assertThatThrownBy(() -> kv.get(KvKey.of("a")))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("(remote.deadlineMs reached)");
      assertThatThrownBy(() -> kv.async().get(KvKey.of("a")).join())
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("(remote.deadlineMs reached)");
      held.release();
      kv.set(KvKey.of("a"), "answered");
      assertThat(kv.get(KvKey.of("a")).value()).as("in time, nothing changes")
          .isEqualTo("answered");
    }
  }

  @Test
  void remoteEngine_aDeadlineBelowOneMillisecond_isRefused() {
    assertThatThrownBy(() -> RemoteConfig.from("http://127.0.0.1:1",
        KvOptions.defaults().with("accessToken", Served.TOKEN).with("remote.deadlineMs", "0")))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("remote.deadlineMs must be positive");
    // A negative retry delay was "bound must be positive" at the first retry; a timeout of 0
    // was taken.
    assertThatThrownBy(() -> RemoteConfig.from("http://127.0.0.1:1", KvOptions.defaults()
        .with("accessToken", Served.TOKEN).with("remote.retryDelayMs", "-1")))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("remote.retryDelayMs must be >= 0: -1");
    assertThatThrownBy(() -> RemoteConfig.from("http://127.0.0.1:1", KvOptions.defaults()
        .with("accessToken", Served.TOKEN).with("remote.timeoutMs", "0")))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("remote.timeoutMs must be positive: 0");
  }

  /**
   * Settings out of range are refused where they are given. A null idle timeout was a
   * NullPointerException at start, a port beyond 65535 Java's "port out of range" from Jetty,
   * and a metadata lifetime of zero or less gave clients metadata already expired.
   */
  @Test
  void builder_settingsOutOfRange_areRefusedWhenGiven() {
    KvServer.Builder b = KvServer.builder();
    assertThatThrownBy(() -> b.port(70_000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port is 0 (any free port) to 65535: 70000");
    assertThatThrownBy(() -> b.port(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.maxThreads(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxThreads must be positive: 0");
    assertThatThrownBy(() -> b.idleTimeout(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("idleTimeout");
    assertThatThrownBy(() -> b.idleTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("idleTimeout must be positive: PT0S");
    assertThatThrownBy(() -> b.metadataLifetime(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("metadataLifetime must be positive: PT-1S");
    assertThatThrownBy(() -> b.drainTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("drainTimeout must not be negative: PT-1S");
    assertThatThrownBy(() -> b.bodyDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bodyDeadline must be positive: PT0S");
    b.port(0).maxThreads(64).idleTimeout(Duration.ofSeconds(1)).drainTimeout(Duration.ZERO)
        .metadataLifetime(Duration.ofMinutes(1)); // in range: taken
  }

  /** Jetty's own words were "Insufficient configured threads: required=2 < max=2". */
  @Test
  void tooFewThreadsForTheMachine_isRefusedAtStart_sayingHowManyItTakes() {
    KvServer.Builder builder = KvServer.builder(served.backing).accessToken(Served.TOKEN)
        .port(0);
    Throwable refused = catchThrowable(() -> builder.maxThreads(1).start());
    assertThat(refused).isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("maxThreads 1 is too few on this machine: Jetty keeps \\d+ for"
            + " accepting, selecting and in reserve, so requests need at least \\d+");
    int least = Integer.parseInt(refused.getMessage().replaceAll(".* at least ", ""));
    try (KvServer server = builder.maxThreads(least).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN))) {
      kv.set(KvKey.of("k"), 1);
      assertThat(kv.get(KvKey.of("k")).value()).as("served with the least it named")
          .isEqualTo(1.0);
    }
  }

  /** Java's parser and Jetty said "Expected authority at index 7" or "Invalid URI host: null". */
  @Test
  void remoteEngine_aUrlWithoutAUsableHostOrPort_isRefusedNamingTheRule() {
    KvOptions options = KvOptions.defaults().with("accessToken", Served.TOKEN);
    assertThatThrownBy(() -> Kv.open("http://", options))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("'http://' is not a KV Connect URL: Expected authority at index 7 (a KV"
            + " Connect URL looks like http://HOST:PORT)");
    assertThatThrownBy(() -> Kv.open("http://kv_server:4512", options))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("names no valid host and port: a host name holds letters, digits,"
            + " '-' and '.', not '_'");
    assertThatThrownBy(() -> Kv.open("http://host:port", options))
        .isInstanceOf(KvArgumentException.class).hasMessageStartingWith("'http://host:port'"
            + " names no valid host and port (a KV Connect URL");
    assertThatThrownBy(() -> Kv.open("https://127.0.0.1:99999", options))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("names port 99999, beyond 65535");
  }

  @Test
  void remoteEngine_serverGone_retriesABoundedNumberOfTimes_thenFailsClearly() {
    Kv remote = Kv.open(served.server.url(), KvOptions.defaults()
        .with("accessToken", Served.TOKEN).with("remote.maxRetries", "2")
        .with("remote.retryDelayMs", "10"));
    served.server.close();
    assertThatThrownBy(() -> remote.get(KvKey.of("a")))
        .isInstanceOf(KvUnavailableException.class).hasMessageContaining("after 3 attempts")
        .matches(e -> ((KvException) e).isRetryable(), "retryable");
  }
}
