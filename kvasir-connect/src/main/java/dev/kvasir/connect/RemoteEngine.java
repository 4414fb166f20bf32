package dev.kvasir.connect;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.connect.proto.AtomicWriteOutput;
import dev.kvasir.connect.proto.SnapshotReadOutput;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;

/**
 * A client for any KV Connect server (denokv, Deno Deploy, Kvasir's {@code KvServer}),
 * docs/kv-connect.md: the metadata exchange when opened and again before it expires, then
 * protobuf requests over HTTP/2 (JDK {@link HttpClient}). A 5xx answer or a network error is
 * retried with exponential backoff up to {@link RemoteConfig#maxRetries()} times; a 4xx is not.
 * KV Connect has no queue delivery, so enqueues and {@code listenQueue} fail clearly, unless the
 * server is Kvasir's, which offers them as an extension ({@link RemoteQueue}).
 */
public final class RemoteEngine implements KvEngine {
  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);
  private static final Duration REFRESH_EARLY = Duration.ofSeconds(10);
  private static final Duration REFRESH_AT_LEAST_EVERY = Duration.ofMinutes(1);

  private final RemoteConfig config;
  private final HttpClient http;
  private final Set<RemoteWatch> watches = ConcurrentHashMap.newKeySet();
  private final RemoteQueue queue = new RemoteQueue(this);
  private volatile boolean queuesOffered;
  private volatile Metadata metadata;
  private volatile Instant refreshAt;
  private volatile boolean closed;

  private RemoteEngine(RemoteConfig config) {
    this.config = config;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
        .connectTimeout(config.timeout()).sslContext(config.sslContext())
        .followRedirects(HttpClient.Redirect.NORMAL).build();
  }

  /**
   * Connects: the metadata exchange happens now, so a wrong URL or token fails here.
   *
   * @throws RemoteException if the server refuses or is not a KV Connect server
   */
  public static RemoteEngine open(RemoteConfig config) {
    RemoteEngine engine = new RemoteEngine(config);
    engine.refreshMetadata();
    return engine;
  }

  /** The metadata in use. */
  public Metadata metadata() {
    return metadata;
  }

  /** The metadata, refreshed first if due; requests take no lock unless it is. */
  private Metadata currentMetadata() {
    if (Instant.now().isAfter(refreshAt)) {
      synchronized (this) {
        if (Instant.now().isAfter(refreshAt)) {
          refreshMetadata();
        }
      }
    }
    return metadata;
  }

  private synchronized void refreshMetadata() {
    HttpRequest request = HttpRequest.newBuilder(config.url()).timeout(config.timeout())
        .header("authorization", "Bearer " + config.accessToken())
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(Metadata.request())).build();
    HttpResponse<byte[]> response = send(request, "the metadata endpoint at '" + config.url()
        + "'");
    Metadata m = Metadata.parse(new String(response.body(), StandardCharsets.UTF_8),
        response.uri());
    queuesOffered = response.headers().firstValue(RemoteQueue.OFFERED).orElse("").equals("1");
    Instant now = Instant.now();
    Instant early = m.expiresAt().minus(REFRESH_EARLY);
    Instant latest = now.plus(REFRESH_AT_LEAST_EVERY);
    metadata = m;
    refreshAt = early.isBefore(latest) ? early : latest;
  }

  /** Sends with retries for 5xx and network errors; returns a 2xx response. */
  private HttpResponse<byte[]> send(HttpRequest request, String what) {
    Duration delay = config.retryDelay();
    for (int attempt = 0; ; attempt++) {
      ensureOpen();
      String failure;
      Throwable cause = null;
      try {
        HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (accepted(r, what)) {
          return r;
        }
        failure = "status " + r.statusCode() + ": " + body(r);
      } catch (SSLHandshakeException e) {
        throw untrusted(what, e);
      } catch (IOException e) {
        failure = e.toString();
        cause = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new KvException("interrupted while calling " + what, e);
      }
      if (attempt >= config.maxRetries()) {
        throw gaveUp(what, attempt, failure, cause);
      }
      sleep(delay);
      delay = doubled(delay, MAX_RETRY_DELAY);
    }
  }

  /**
   * {@link #send} without a thread waiting: the retries wait on a timer, and the future
   * completes on the HTTP client's threads.
   */
  private CompletableFuture<HttpResponse<byte[]>> sendAsync(HttpRequest request, String what,
      int attempt, Duration delay) {
    if (closed) {
      return CompletableFuture.failedFuture(new KvClosedException());
    }
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .handle((r, error) -> {
          String failure;
          Throwable cause = null;
          if (error != null) {
            Throwable e = error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
            if (e instanceof SSLHandshakeException tls) {
              throw untrusted(what, tls);
            }
            if (!(e instanceof IOException)) {
              throw new CompletionException(e);
            }
            failure = e.toString();
            cause = e;
          } else if (accepted(r, what)) {
            return CompletableFuture.completedFuture(r);
          } else {
            failure = "status " + r.statusCode() + ": " + body(r);
          }
          if (attempt >= config.maxRetries()) {
            throw gaveUp(what, attempt, failure, cause);
          }
          Executor later = CompletableFuture.delayedExecutor(jittered(delay),
              TimeUnit.MILLISECONDS);
          return CompletableFuture.supplyAsync(() -> null, later).thenCompose(
              ignored -> sendAsync(request, what, attempt + 1, doubled(delay, MAX_RETRY_DELAY)));
        }).thenCompose(next -> next);
  }

  /**
   * Whether {@code r} is a 2xx answer; false for a 5xx, which is retried.
   *
   * @throws KvException for any other status: the call failed for good
   */
  private static boolean accepted(HttpResponse<byte[]> r, String what) {
    if (r.statusCode() / 100 == 2) {
      return true;
    }
    String body = body(r);
    // A Kvasir server tells which of the embedded engines' exceptions this is.
    String kind = r.headers().firstValue("x-kvasir-error").orElse("");
    if (r.statusCode() == 400 && kind.equals("type")) {
      throw new KvTypeException(body);
    }
    if (r.statusCode() == 400 && kind.equals("limit")) {
      throw new KvLimitException(body);
    }
    if (r.statusCode() < 500) {
      throw new RemoteException("KV Connect failed to call " + what + " (status="
          + r.statusCode() + "): " + body);
    }
    return false;
  }

  private static String body(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  /** A certificate that is not trusted now will not be trusted on the next attempt. */
  private static RemoteException untrusted(String what, SSLHandshakeException e) {
    return new RemoteException("the TLS handshake with " + what + " failed: "
        + e.getMessage() + ". If the server's certificate is signed by your own CA, pass"
        + " its trust store as the options remote.trustStore and"
        + " remote.trustStorePassword.", e);
  }

  /**
   * The server answered 5xx or not at all: transient. A write may have been applied before the
   * answer was lost; resending it is safe, as it carries its idempotency key.
   */
  private static KvUnavailableException gaveUp(String what, int attempt, String failure,
      Throwable cause) {
    return new KvUnavailableException("KV Connect failed to call " + what + " after "
        + (attempt + 1) + " attempts; last: " + failure, true, cause);
  }

  /** The next delay of an exponential backoff: twice this one, at most {@code max}. */
  static Duration doubled(Duration delay, Duration max) {
    Duration twice = delay.multipliedBy(2);
    return twice.compareTo(max) > 0 ? max : twice;
  }

  /** The delay with up to half again at random, so that many clients do not retry in step. */
  private static long jittered(Duration base) {
    return base.toMillis() + ThreadLocalRandom.current().nextLong(base.toMillis() / 2 + 1);
  }

  private static void sleep(Duration base) {
    try {
      Thread.sleep(jittered(base));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted while waiting to retry", e);
    }
  }

  /** A data-path request to the endpoint for this consistency. */
  HttpRequest.Builder dataRequest(String method, MessageLite body, boolean strong) {
    Metadata m = currentMetadata();
    Metadata.Endpoint endpoint = strong ? m.strongEndpoint() : m.eventualEndpoint();
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.url() + "/" + method))
        .header("authorization", "Bearer " + m.token())
        .header("content-type", "application/x-protobuf")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
    if (m.version() == 1) {
      b.header("x-transaction-domain-id", m.databaseId().toString());
    } else {
      b.header("x-denokv-database-id", m.databaseId().toString())
          .header("x-denokv-version", String.valueOf(m.version()));
    }
    return b;
  }

  /**
   * Posts to the strong endpoint's {@code method} with retries, allowing {@code longer} beyond
   * the usual timeout (a long poll); returns the 2xx response.
   */
  HttpResponse<byte[]> post(String method, MessageLite body, Duration longer) {
    HttpRequest request = dataRequest(method, body, true)
        .timeout(config.timeout().plus(longer)).build();
    return send(request, "'" + request.uri() + "'");
  }

  private byte[] call(String method, MessageLite body, boolean strong) {
    HttpRequest request = dataRequest(method, body, strong).timeout(config.timeout()).build();
    return send(request, "'" + request.uri() + "'").body();
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    boolean strong = consistency == Consistency.STRONG;
    byte[] answer = call("snapshot_read", Wire.snapshotRead(ranges), strong);
    try {
      return Wire.entries(SnapshotReadOutput.parseFrom(answer), strong);
    } catch (InvalidProtocolBufferException e) {
      throw new RemoteException("KV Connect failed to decode response: " + e.getMessage(), e);
    }
  }

  @Override
  public CompletableFuture<List<List<RawEntry>>> snapshotReadAsync(List<ReadRange> ranges,
      Consistency consistency) {
    boolean strong = consistency == Consistency.STRONG;
    HttpRequest request = dataRequest("snapshot_read", Wire.snapshotRead(ranges), strong)
        .timeout(config.timeout()).build();
    return sendAsync(request, "'" + request.uri() + "'", 0, config.retryDelay())
        .thenApply(r -> {
          try {
            return Wire.entries(SnapshotReadOutput.parseFrom(r.body()), strong);
          } catch (InvalidProtocolBufferException e) {
            throw new RemoteException("KV Connect failed to decode response: " + e.getMessage(),
                e);
          }
        });
  }

  @Override
  public CompletableFuture<Optional<Versionstamp>> atomicWriteAsync(AtomicWrite write) {
    HttpRequest request = writeRequest(write);
    return sendAsync(request, "'" + request.uri() + "'", 0, config.retryDelay())
        .thenApply(r -> committed(r.body()));
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    HttpRequest request = writeRequest(write);
    return committed(send(request, "'" + request.uri() + "'").body());
  }

  /**
   * The request of an atomic write, with one idempotency key for every attempt of it: a retry
   * after a lost answer (the server died after committing) is answered with the first attempt's
   * result, not applied again.
   */
  private HttpRequest writeRequest(AtomicWrite write) {
    if (!write.enqueues().isEmpty() && !queuesOffered) {
      throw new KvException("Enqueue operations are not supported in KV Connect (only a Kvasir"
          + " server offers queues)");
    }
    String key = write.idempotencyKey() != null ? write.idempotencyKey()
        : UUID.randomUUID().toString();
    return dataRequest("atomic_write", Wire.atomicWrite(write), true)
        .header(Wire.IDEMPOTENCY_KEY_HEADER, key).timeout(config.timeout()).build();
  }

  private static Optional<Versionstamp> committed(byte[] answer) {
    try {
      return Wire.committed(AtomicWriteOutput.parseFrom(answer));
    } catch (InvalidProtocolBufferException e) {
      throw new RemoteException("KV Connect failed to decode response: " + e.getMessage(), e);
    }
  }

  /** Through a Kvasir server's queue extension; other KV Connect servers deliver none. */
  @Override
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    ensureOpen();
    if (!queuesOffered) {
      throw new KvException("KV Connect does not support queues: listenQueue needs a Kvasir"
          + " server, an embedded engine (SQLite, memory) or PostgreSQL");
    }
    return queue.next(timeout);
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    ensureOpen();
    if (currentMetadata().version() < 3) {
      throw new KvException("watch needs KV Connect protocol version 3; the server speaks "
          + metadata.version());
    }
    RemoteWatch watch = new RemoteWatch(this, keys);
    watches.add(watch);
    return watch;
  }

  /** Opens one watch stream; the caller reads frames from the body. */
  InputStream openWatchStream(List<RawKey> keys) throws IOException, InterruptedException {
    HttpRequest request = dataRequest("watch", Wire.watch(keys), true).build();
    HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    if (r.statusCode() != 200) {
      String body;
      try (InputStream in = r.body()) {
        body = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
      }
      if (r.statusCode() < 500) {
        throw new RemoteException("KV Connect failed to call '" + request.uri() + "' (status="
            + r.statusCode() + "): " + body);
      }
      throw new IOException("status " + r.statusCode() + ": " + body);
    }
    return r.body();
  }

  void watchClosed(RemoteWatch watch) {
    watches.remove(watch);
  }

  RemoteConfig config() {
    return config;
  }

  boolean isClosed() {
    return closed;
  }

  private void ensureOpen() {
    if (closed) {
      throw new KvClosedException();
    }
  }

  @Override
  public void close() {
    closed = true;
    watches.forEach(RemoteWatch::close);
    queue.close();
  }
}
