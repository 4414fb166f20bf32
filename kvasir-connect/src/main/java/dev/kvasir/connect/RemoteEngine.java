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
import dev.kvasir.engine.Outcomes;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client for any KV Connect server (denokv, Deno Deploy, Kvasir's {@code KvServer}),
 * docs/kv-connect.md: the metadata exchange when opened and again before it expires, then
 * protobuf requests over HTTP/2 ({@link Transport}). A 5xx answer or a network error is
 * retried with exponential backoff up to {@link RemoteConfig#maxRetries()} times; a 4xx is not.
 * KV Connect has no queue delivery, so enqueues and {@code listenQueue} fail clearly, unless the
 * server is Kvasir's, which offers them as an extension ({@link RemoteQueue}).
 */
public final class RemoteEngine implements KvEngine {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteEngine.class);
  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);
  private static final Duration REFRESH_EARLY = Duration.ofSeconds(10);
  private static final Duration REFRESH_AT_LEAST_EVERY = Duration.ofMinutes(1);
  /** How long close() waits for the answers to writes already sent. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  private final RemoteConfig config;
  private final Transport transport;
  private final Set<RemoteWatch> watches = ConcurrentHashMap.newKeySet();
  private final WatchOutage watchOutage;
  private final RemoteQueue queue = new RemoteQueue(this);
  private volatile boolean queuesOffered;
  /** The metadata in use, with what data calls under it share: a completed future. */
  private volatile CompletableFuture<DataCalls> calls;
  /** When the metadata is due to be fetched again; due at once before the first exchange. */
  private volatile Instant refreshAt = Instant.MIN;
  /** The exchange under way, which every caller that finds the metadata due waits for. */
  private CompletableFuture<DataCalls> refreshing; // guarded by this
  private volatile boolean closed;
  /** Set once close() has waited for the writes in flight: what is still in flight is aborted. */
  private volatile boolean stopping;
  private final WritesInFlight writesInFlight = new WritesInFlight();

  private RemoteEngine(RemoteConfig config) {
    this.config = config;
    this.transport = new Transport(config);
    this.watchOutage = new WatchOutage(config.url());
  }

  /**
   * Connects: the metadata exchange happens now, so a wrong URL or token fails here.
   *
   * @throws RemoteException if the server refuses or is not a KV Connect server
   */
  public static RemoteEngine open(RemoteConfig config) {
    RemoteEngine engine = new RemoteEngine(config);
    try {
      engine.awaitCalls();
    } catch (RuntimeException e) {
      engine.close();
      throw e;
    }
    return engine;
  }

  /** The metadata in use. */
  public Metadata metadata() {
    return calls.join().metadata();
  }

  /**
   * The metadata's calls; requests take no lock unless a refresh is due. A due refresh starts
   * here, and requests wait for it only once the metadata in use has expired (or before the
   * first). Never waits on a thread: an asynchronous request may be started on the transport's
   * thread that read the answer before it, the only thread that can read the refresh's answer
   * (docs/kv-connect.md §11).
   */
  private CompletableFuture<DataCalls> currentCalls() {
    if (!Instant.now().isAfter(refreshAt)) {
      return calls;
    }
    synchronized (this) {
      Instant now = Instant.now();
      if (!now.isAfter(refreshAt)) {
        return calls;
      }
      CompletableFuture<DataCalls> refresh = refreshing;
      if (refresh == null) {
        refresh = fetchMetadata();
        refreshing = refresh;
        CompletableFuture<DataCalls> started = refresh;
        // Runs at once, on this thread, if the answer is in already.
        started.whenComplete((fetched, error) -> refreshEnded(started, error));
      }
      boolean stillValid = calls != null && now.isBefore(calls.join().metadata().expiresAt());
      return stillValid ? calls : refresh;
    }
  }

  private synchronized void refreshEnded(CompletableFuture<DataCalls> refresh, Throwable error) {
    if (refreshing == refresh) {
      refreshing = null; // after a failure, the next request tries again
    }
    Instant expiresAt = calls == null ? Instant.MIN : calls.join().metadata().expiresAt();
    if (error != null && !closed && Instant.now().isBefore(expiresAt)) {
      // While the metadata in use is valid no request waits for the exchange, or sees it fail.
      Throwable cause = unwrapped(error);
      LOG.warn("Cannot refresh the KV Connect metadata of {}; requests go on with the metadata"
          + " in use until it expires at {}: {}", config.url(), expiresAt, cause.toString());
    }
  }

  /**
   * {@link #currentCalls}, waiting for a refresh on the caller's thread. Every blocking call
   * starts here, so here it is refused on the transport's own threads.
   */
  private DataCalls awaitCalls() {
    ensureMayWait();
    try {
      return currentCalls().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted while fetching the metadata", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r
          : new KvException("KV Connect failed to fetch the metadata: " + e.getCause(),
              e.getCause());
    }
  }

  /** The metadata exchange, with the retries of any request; adopts what it answers. */
  private CompletableFuture<DataCalls> fetchMetadata() {
    Transport.Call call = new Transport.Call(config.url(),
        Map.of("authorization", "Bearer " + config.accessToken()), "application/json",
        Metadata.request().getBytes(StandardCharsets.UTF_8), config.timeout());
    String what = "the metadata endpoint at '" + config.url() + "'";
    CallDeadline deadline = CallDeadline.start(config.deadline());
    CompletableFuture<Transport.Answer> answer =
        sendAsync(call, what, 0, config.retryDelay(), deadline, false, null);
    return answer.thenApply(response -> {
      Metadata m = Metadata.parse(response.text(), response.uri());
      queuesOffered = response.header(RemoteQueue.OFFERED).equals("1");
      Instant early = m.expiresAt().minus(REFRESH_EARLY);
      Instant latest = Instant.now().plus(REFRESH_AT_LEAST_EVERY);
      DataCalls fetched = new DataCalls(m);
      calls = CompletableFuture.completedFuture(fetched);
      refreshAt = early.isBefore(latest) ? early : latest; // after calls: read in this order
      return fetched;
    }).exceptionally(error -> {
      throw nothingApplied(error);
    });
  }

  /**
   * A failed metadata exchange: the data call waiting for it was never sent, so a write behind
   * it was not applied, however far the exchange itself got.
   */
  private static RuntimeException nothingApplied(Throwable error) {
    Throwable cause = unwrapped(error);
    if (cause instanceof KvUnavailableException u && u.maybeApplied()) {
      return new KvUnavailableException(u.getMessage(), false, u.getCause());
    }
    return unchecked(cause);
  }

  /** The failure a stage's CompletionException wraps, or {@code error} itself. */
  private static Throwable unwrapped(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null
        ? error.getCause() : error;
  }

  /** {@code cause} to throw from a stage: as it is when unchecked, else wrapped. */
  private static RuntimeException unchecked(Throwable cause) {
    return cause instanceof RuntimeException r ? r : new CompletionException(cause);
  }

  /** Sends with retries for 5xx, 408, 429 and network errors; returns a 2xx answer. */
  private Transport.Answer send(Transport.Call call, String what) {
    Duration delay = config.retryDelay();
    CallDeadline deadline = CallDeadline.start(config.deadline());
    boolean arrived = false;
    String telling = null; // an attempt's failure that says what is wrong with the URL
    for (int attempt = 0; ; attempt++) {
      ensureOpen();
      String failure;
      Throwable cause = null;
      CompletableFuture<Transport.Answer> pending = transport.send(deadline.cut(call));
      try {
        Transport.Answer r = pending.get();
        if (accepted(r, what)) {
          return r;
        }
        failure = "status " + r.status() + ": " + r.text();
        arrived |= answeredAfterWork(r);
      } catch (InterruptedException e) {
        pending.cancel(true);
        Thread.currentThread().interrupt();
        throw new KvException("interrupted while calling " + what, e);
      } catch (ExecutionException e) {
        ensureOpen(); // closing aborts what is in flight
        cause = e.getCause();
        failure = transientFailure(cause, what);
        arrived |= mayHaveArrived(cause);
        if (plainToTls(cause)) {
          telling = failure;
        }
      }
      if (attempt >= config.maxRetries() || !deadline.allowsRetryAfter(delay)) {
        throw gaveUp(what, attempt, failure + deadline.reached(delay), telling, cause, arrived);
      }
      sleep(delay);
      delay = doubled(delay, MAX_RETRY_DELAY);
    }
  }

  /**
   * {@link #send} without a thread waiting: the retries wait on a timer, and the future
   * completes on the transport's threads. {@code arrived}: whether an attempt before this one
   * may have reached the server; {@code telling}: the failure of one that says what is wrong
   * with the URL, or null.
   */
  private CompletableFuture<Transport.Answer> sendAsync(Transport.Call call, String what,
      int attempt, Duration delay, CallDeadline deadline, boolean arrived, String telling) {
    // A closed client starts no call, but retries the calls it started until it stops.
    if (attempt == 0 ? closed : stopping) {
      return CompletableFuture.failedFuture(new KvClosedException());
    }
    return transport.send(deadline.cut(call)).handle((r, error) -> {
      String failure;
      Throwable cause = null;
      boolean arrivedNow;
      if (error != null) {
        if (stopping) { // stopping aborts what is in flight
          throw new KvClosedException();
        }
        cause = unwrapped(error);
        failure = transientFailure(cause, what);
        arrivedNow = mayHaveArrived(cause);
      } else if (accepted(r, what)) {
        return CompletableFuture.completedFuture(r);
      } else {
        failure = "status " + r.status() + ": " + r.text();
        arrivedNow = answeredAfterWork(r);
      }
      boolean reached = arrived || arrivedNow;
      String told = plainToTls(cause) ? failure : telling;
      if (attempt >= config.maxRetries() || !deadline.allowsRetryAfter(delay)) {
        throw gaveUp(what, attempt, failure + deadline.reached(delay), told, cause, reached);
      }
      // Run by the JDK's timer thread itself: the next attempt only starts a request. (Without
      // an executor, Java 17 with one or two processors would start a thread for it.)
      Executor later = CompletableFuture.delayedExecutor(jittered(delay), TimeUnit.MILLISECONDS,
          Runnable::run);
      return CompletableFuture.supplyAsync(() -> null, later).thenCompose(
          ignored -> sendAsync(call, what, attempt + 1, doubled(delay, MAX_RETRY_DELAY),
              deadline, reached, told));
    }).thenCompose(next -> next);
  }

  /**
   * The text of a failure worth another attempt: the network, a timeout, a name that did not
   * resolve. Throws any other, and a failed TLS handshake, which the next attempt would repeat.
   */
  private String transientFailure(Throwable e, String what) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof SSLHandshakeException tls) {
        throw untrusted(what, tls);
      }
    }
    if (plainToTls(e)) {
      return e + " (the server closed the connection without an answer, as a server that"
          + " speaks TLS does to a plain one: if it has a certificate, its URL starts with"
          + " https://)";
    }
    if (e instanceof IOException || e instanceof TimeoutException
        || e instanceof UnresolvedAddressException) {
      return e.toString();
    }
    if (e instanceof RuntimeException r) {
      throw r;
    }
    throw new KvException("KV Connect failed to call " + what + ": " + e, e);
  }

  /**
   * Whether {@code r} is a 2xx answer; false for a 5xx, 408 and 429, which are retried.
   *
   * @throws KvException for any other status: the call failed for good
   */
  private static boolean accepted(Transport.Answer r, String what) {
    if (r.status() / 100 == 2) {
      return true;
    }
    if (refusedBeforeWork(r.status())) {
      return false;
    }
    String body = r.text();
    // A Kvasir server tells which of the embedded engines' exceptions this is.
    String kind = r.header("x-kvasir-error");
    if (r.status() == 400 && kind.equals("type")) {
      throw new KvTypeException(body);
    }
    if (r.status() == 400 && kind.equals("limit")) {
      throw new KvLimitException(body);
    }
    if (r.status() < 500) {
      throw new RemoteException("KV Connect failed to call " + what + " (status="
          + r.status() + "): " + body + (r.status() != 404 ? "" : " Check the URL: it is the"
              + " database's KV Connect URL as its server gives it (kvasir serve prints"
              + " http://HOST:PORT), not a path under it."), r.status());
    }
    return false;
  }

  /** A certificate that is not trusted now will not be trusted on the next attempt. */
  private static RemoteException untrusted(String what, SSLHandshakeException e) {
    if (String.valueOf(e.getMessage()).contains("plaintext connection")) {
      // The JDK's words for an answer that is no TLS at all.
      return new RemoteException("the TLS handshake with " + what + " failed: the server"
          + " answers without TLS; the URL of a server started without a certificate (kvasir"
          + " serve without --tls-cert) starts with http://", e);
    }
    return new RemoteException("the TLS handshake with " + what + " failed: "
        + e.getMessage() + ". If the server's certificate is signed by your own CA, give"
        + " that CA's certificate in PEM as the option remote.caFile (the command line's"
        + " --ca-file or KVASIR_CA_FILE), or a trust store as remote.trustStore and"
        + " remote.trustStorePassword.", e);
  }

  /**
   * Whether {@code e} is how a server that speaks TLS meets a plain request: it closes the
   * connection without an answer.
   */
  private boolean plainToTls(Throwable e) {
    return e instanceof ClosedChannelException && "http".equals(config.url().getScheme());
  }

  /**
   * The server answered 5xx, 408, 429 or not at all: transient. {@code arrived}: whether an
   * attempt may have reached the server, so that a write may have been applied before its
   * answer was lost.
   */
  private static KvUnavailableException gaveUp(String what, int attempt, String failure,
      String telling, Throwable cause, boolean arrived) {
    String attempts = attempt == 0 ? "1 attempt" : (attempt + 1) + " attempts";
    // The last attempt may have met only the deadline, which says nothing of the URL.
    String earlier = telling == null || failure.startsWith(telling) ? ""
        : "; an earlier one: " + telling;
    return new KvUnavailableException("KV Connect failed to call " + what + " after "
        + attempts + "; last: " + failure + earlier, arrived, cause);
  }

  /** Whether a retried answer may follow work done: a 5xx may, a 408 or 429 comes before any. */
  private static boolean answeredAfterWork(Transport.Answer r) {
    return !refusedBeforeWork(r.status());
  }

  /**
   * A refusal that asks to try again and comes before the server did anything: 408, the body
   * did not arrive in time; 429, the server is at one of its limits (watches, queue polls;
   * docs/kv-connect.md §9).
   */
  static boolean refusedBeforeWork(int status) {
    return status == 408 || status == 429;
  }

  /**
   * Whether a failed attempt may have delivered its request: every failure but a connection
   * that was refused or a name that did not resolve.
   */
  private static boolean mayHaveArrived(Throwable cause) {
    for (Throwable c = cause; c != null; c = c.getCause()) {
      if (c instanceof ConnectException || c instanceof UnresolvedAddressException
          || c instanceof UnknownHostException) {
        return false;
      }
    }
    return true;
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

  /** A data-path call under the metadata {@code c} to its endpoint for this consistency. */
  private static Transport.Call dataCall(DataCalls c, String method, MessageLite body,
      boolean strong, Duration timeout, Map<String, String> extraHeaders) {
    return new Transport.Call(c.uri(method, strong), c.headers(extraHeaders),
        "application/x-protobuf", body.toByteArray(), timeout);
  }

  /** Posts a data-path call with retries, on the caller's thread; returns the 2xx answer. */
  private Transport.Answer sendData(String method, MessageLite body, boolean strong,
      Duration timeout, Map<String, String> extraHeaders) {
    Transport.Call call = dataCall(awaitCalls(), method, body, strong, timeout, extraHeaders);
    return send(call, "'" + call.uri() + "'");
  }

  /** {@link #sendData} with the usual timeout, without a thread waiting. */
  private CompletableFuture<Transport.Answer> sendDataAsync(String method, MessageLite body,
      boolean strong, Map<String, String> extraHeaders) {
    return currentCalls().thenCompose(c -> {
      Transport.Call call = dataCall(c, method, body, strong, config.timeout(), extraHeaders);
      return sendAsync(call, "'" + call.uri() + "'", 0, config.retryDelay(),
          CallDeadline.start(config.deadline()), false, null);
    });
  }

  /**
   * Posts to the strong endpoint's {@code method} with retries, allowing {@code longer} beyond
   * the usual timeout (a long poll); returns the 2xx answer.
   */
  Transport.Answer post(String method, MessageLite body, Duration longer) {
    return sendData(method, body, true, config.timeout().plus(longer), Map.of());
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    boolean strong = consistency == Consistency.STRONG;
    return entries(sendData("snapshot_read", Wire.snapshotRead(ranges), strong,
        config.timeout(), Map.of()).body(), strong);
  }

  @Override
  public CompletableFuture<List<List<RawEntry>>> snapshotReadAsync(List<ReadRange> ranges,
      Consistency consistency) {
    boolean strong = consistency == Consistency.STRONG;
    return sendDataAsync("snapshot_read", Wire.snapshotRead(ranges), strong, Map.of())
        .thenApply(r -> entries(r.body(), strong));
  }

  private static List<List<RawEntry>> entries(byte[] answer, boolean strong) {
    try {
      return Wire.entries(SnapshotReadOutput.parseFrom(answer), strong);
    } catch (InvalidProtocolBufferException e) {
      throw new RemoteException("KV Connect failed to decode response: " + e.getMessage(), e);
    }
  }

  /**
   * Sent unless the client is closed; closing waits for its answer (docs/kv-connect.md §11).
   */
  @Override
  public CompletableFuture<Optional<Versionstamp>> atomicWriteAsync(AtomicWrite write) {
    Map<String, String> headers = writeHeaders(write);
    return writesInFlight.track(() -> sendDataAsync("atomic_write", Wire.atomicWrite(write), true,
        headers).handle((r, error) -> {
          if (error != null) {
            throw withOutcome(error);
          }
          return committed(r.body());
        }));
  }

  /**
   * A write's failure, which for a write given up on also says whether it may have been
   * applied: the caller cannot retry it with its idempotency key, so must read before writing
   * again, or a sum would be counted twice.
   */
  private static RuntimeException withOutcome(Throwable error) {
    Throwable cause = unwrapped(error);
    if (!(cause instanceof KvUnavailableException u)) {
      return unchecked(cause);
    }
    String outcome = u.maybeApplied()
        ? "; the write may have been applied: read the keys it writes before writing them again"
        : "; the write was not applied: it did not reach the server";
    return new KvUnavailableException(u.getMessage() + outcome, u.maybeApplied(), u.getCause());
  }

  /**
   * The asynchronous write, waited for to its end even when the caller is interrupted: once sent,
   * only the answer tells whether it was applied, and its idempotency key makes each retry safe.
   * The interrupt is set again after (docs/atomic.md §9).
   */
  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    ensureMayWait();
    return Outcomes.awaitUninterruptibly(atomicWriteAsync(write), "KV Connect write");
  }

  /**
   * The headers of an atomic write: one idempotency key for every attempt of it, so that a
   * retry after a lost answer (the server died after committing) is answered with the first
   * attempt's result, not applied again.
   */
  private Map<String, String> writeHeaders(AtomicWrite write) {
    if (!write.enqueues().isEmpty() && !queuesOffered) {
      throw new KvException("Enqueue operations are not supported in KV Connect (only a Kvasir"
          + " server offers queues)");
    }
    String key = write.idempotencyKey() != null ? write.idempotencyKey()
        : UUID.randomUUID().toString();
    return Map.of(Wire.IDEMPOTENCY_KEY_HEADER, key);
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
    int version = awaitCalls().metadata().version();
    if (version < 3) {
      throw new KvException("watch needs KV Connect protocol version 3; the server speaks "
          + version);
    }
    RemoteWatch watch = new RemoteWatch(this, keys);
    watches.add(watch);
    return watch;
  }

  /**
   * Opens one watch stream; the caller reads frames from the body, which has no time limit.
   *
   * @throws IOException if the stream cannot be opened now (retried by the watch)
   */
  InputStream openWatchStream(List<RawKey> keys) throws IOException, InterruptedException {
    return transport.openStream(dataCall(awaitCalls(), "watch", Wire.watch(keys), true,
        config.timeout(), Map.of()));
  }

  WatchOutage watchOutage() {
    return watchOutage;
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

  /**
   * Refuses to wait on one of the transport's threads: the answer waited for could only be read
   * there, so neither it nor the request's time limit would ever end the wait (docs/async.md §2).
   */
  private void ensureMayWait() {
    if (transport.isOwnThread()) {
      throw new KvException("a blocking KV Connect call was made in a callback on the client's"
          + " own thread, which is the thread that reads its answer; use the asynchronous API"
          + " there, or give kv.async an executor of your own (docs/async.md §2)");
    }
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
    // A write the server applied must not be reported aborted: wait for the answers (on the
    // transport's own thread none could come while it waited).
    writesInFlight.awaitAnswers(transport.isOwnThread() ? Duration.ZERO : CLOSE_WAIT);
    stopping = true;
    transport.close();
  }
}
