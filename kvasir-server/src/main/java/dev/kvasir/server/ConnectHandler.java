package dev.kvasir.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import dev.kvasir.Limits;
import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.connect.BadRequestException;
import dev.kvasir.connect.Metadata;
import dev.kvasir.connect.Wire;
import dev.kvasir.connect.proto.QueueCancel;
import dev.kvasir.connect.proto.QueueFinish;
import dev.kvasir.connect.proto.QueueMessage;
import dev.kvasir.connect.proto.QueueNext;
import dev.kvasir.connect.proto.QueueRenew;
import dev.kvasir.connect.proto.QueueRenewOutput;
import dev.kvasir.connect.proto.SnapshotRead;
import dev.kvasir.connect.proto.Watch;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.ReadRange;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KV Connect endpoints of denokv's server (docs/kv-connect.md §8): metadata at {@code
 * POST /}, data at {@code POST /v2/snapshot_read}, {@code /v2/atomic_write}, {@code /v2/watch}.
 * Every request needs one of the bearer tokens, and stays within that token's reach
 * (read-only, key prefixes: docs/operations.md §4, else 403); a refused request gets a 4xx
 * with a plain-text reason and touches nothing; 5xx is only for faults of the server itself.
 *
 * <p>Jetty calls it on the thread that parsed the request, often its selector (it is declared
 * non-blocking), so it never waits there: small reads of an engine that reads without waiting
 * and commits handed to the engine's commit thread run there, everything else on the server's
 * pool (docs/kv-connect.md §13).
 */
final class ConnectHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectHandler.class);
  private static final int MAX_METADATA_BYTES = 64 * 1024;
  /** The largest valid atomic write (§7) plus protobuf framing, with room to spare. */
  private static final int MAX_DATA_BYTES = 4 * 1024 * 1024;
  /**
   * The most entries a snapshot read may ask for and still run on the thread that received it:
   * gets, Deno's batches of up to 10 keys and short lists; at most 16 values of 64 KiB
   * (docs/kv-connect.md §13).
   */
  private static final int MAX_ENTRIES_READ_IN_PLACE = 16;
  /**
   * The most heap one entry of a snapshot read may hold while the answer is made: its key (2 KiB)
   * and value (64 KiB) as the engine returns them and again in the answer's bytes (the protobuf
   * message shares the former), and the objects around them (docs/operations.md §10).
   */
  private static final long MOST_BYTES_PER_ENTRY_READ =
      2L * (Limits.MAX_READ_KEY_BYTES + Limits.MAX_VALUE_BYTES) + 256;
  static final String PROTOBUF = "application/x-protobuf";
  /**
   * Kvasir's own header on a 400: {@code type} or {@code limit}, so that Kvasir's client throws
   * the same exception an embedded engine would. Other clients read the plain-text body.
   */
  static final String ERROR_KIND = "x-kvasir-error";
  /** The metadata answer's header that offers Kvasir's queue extension (§10). */
  static final String QUEUES_OFFERED = "x-kvasir-queues";
  /** The token a request presented, as the request attribute of this name. */
  private static final String TOKEN = AccessToken.class.getName();

  private final KvEngine engine;
  private final Permissions permissions;
  /** Told of every atomic write the engine answered: applied or not (a failed check). */
  private final Consumer<Boolean> onCommit;
  private final UUID databaseId;
  private final Set<Integer> versions;
  private final Duration metadataLifetime;
  /** Requests answered 503 for a fault of the storage: one warning a minute. */
  private final ThrottledWarning unavailable = new ThrottledWarning(LOG, Duration.ofMinutes(1));
  /** The watches that hold a thread each (an engine that cannot call back). */
  private final Set<EngineWatch> watches = ConcurrentHashMap.newKeySet();
  private final WatchStreams streams = new WatchStreams();
  private final WatchLimits watchLimits;
  private final Duration bodyDeadline;
  private final BodyMemory memory;
  private final QueueGateway queues;
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean stopping;
  /** Whose X-Forwarded-Prefix is believed. */
  private final ClientAddress proxies;

  ConnectHandler(KvEngine engine, Supplier<List<AccessToken>> tokens, boolean readOnly,
      UUID databaseId, Set<Integer> versions,
      Duration metadataLifetime, WatchLimits watchLimits, Duration bodyDeadline,
      BodyMemory memory, QueueGateway queues, ClientAddress proxies,
      Consumer<Boolean> onCommit) {
    super(InvocationType.NON_BLOCKING); // nothing below waits on Jetty's thread: see offload
    this.onCommit = onCommit;
    this.queues = queues;
    this.watchLimits = watchLimits;
    this.bodyDeadline = bodyDeadline;
    this.memory = memory;
    this.engine = engine;
    this.permissions = new Permissions(tokens, readOnly);
    this.databaseId = databaseId;
    this.versions = versions;
    this.metadataLifetime = metadataLifetime;
    this.proxies = proxies;
  }

  /** A step of a request that may refuse it. */
  private interface Step {
    void run() throws Refused;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    inFlight.incrementAndGet();
    RequestBody[] admitted = new RequestBody[1];
    try {
      answer(path, response, callback, () -> {
        try {
          admit(path, request, response);
          admitted[0] = RequestBody.reserve(request, memory, maxBody(path));
        } catch (Refused | RuntimeException e) {
          // Its body stays unread, so an HTTP/1.1 connection cannot carry another request:
          // say so, or the client may send its next request on a connection being closed.
          if (request.getConnectionMetaData().getHttpVersion().getVersion() < 20) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
          }
          throw e;
        }
      });
      if (admitted[0] != null) {
        RequestBody body = admitted[0];
        readBody(path, request, response, Callback.from(callback, body::release), body);
      }
    } finally {
      if (admitted[0] == null) {
        inFlight.decrementAndGet();
      }
    }
    return true;
  }

  /** What is checked before the body is read; a refusal leaves the body unread. */
  private void admit(String path, Request request, Response response) throws Refused {
    if (stopping && !endsADelivery(path)) {
      throw new KvClosedException();
    }
    if (!path.equals("/") && !path.startsWith("/v2/")) {
      throw new Refused(404, "Resource not found.");
    }
    if (!HttpMethod.POST.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "POST");
      throw new Refused(405, "KV Connect endpoints take POST requests only.");
    }
    request.setAttribute(TOKEN, permissions.authenticate(request));
    int max = maxBody(path);
    if (request.getLength() > max) {
      throw new Refused(413, "The request body is too large: " + request.getLength()
          + " bytes (max " + max + ").");
    }
  }

  /**
   * Reads the body without holding a thread while bytes trickle in, up to the body deadline
   * (a client that sends too slowly gets 408), then serves the request.
   */
  private void readBody(String path, Request request, Response response, Callback callback,
      RequestBody body) {
    body.read()
        .orTimeout(bodyDeadline.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete((bytes, failure) -> answerAndRelease(path, response, callback, () -> {
          if (failure != null) {
            throw refusedBody(failure);
          }
          if (!path.equals("/v2/atomic_write")) {
            // Only a write's body lives on (in the commit queue). A read waits for memory of its
            // own, which its body must not hold up.
            body.release();
          }
          serve(path, request, response, callback, bytes);
        }));
  }

  /**
   * Requests a stopping server still serves, so that the deliveries its remote listeners are
   * handling end with their outcome (docs/operations.md §3).
   */
  private static boolean endsADelivery(String path) {
    return path.equals("/v2/kvasir/queue/finish") || path.equals("/v2/kvasir/queue/renew")
        || path.equals("/v2/kvasir/queue/cancel");
  }

  private static int maxBody(String path) {
    return path.equals("/") ? MAX_METADATA_BYTES : MAX_DATA_BYTES;
  }

  private Refused refusedBody(Throwable failure) {
    Throwable cause = cause(failure);
    if (cause instanceof TimeoutException) {
      return new Refused(408, "The request body did not arrive within "
          + bodyDeadline.toSeconds() + " s.");
    }
    if (cause instanceof Refused r) { // too large, or no memory left for it
      return r;
    }
    return new Refused(400, "The request body could not be read: " + cause.getMessage());
  }

  /** Answers the request whose body arrived; only the metadata answer is always made here. */
  private void serve(String path, Request request, Response response, Callback callback,
      byte[] body) throws Refused {
    switch (path) {
      case "/" -> metadata(request, response, callback, body);
      case "/v2/snapshot_read" -> snapshotRead(request, response, callback, body);
      case "/v2/atomic_write" -> atomicWrite(request, response, callback, body);
      default -> offload(path, request, response, callback,
          () -> serveOnPool(path, request, response, callback, body));
    }
  }

  /** The requests that may wait: for a watch's first read, a queue's commits. */
  private void serveOnPool(String path, Request request, Response response, Callback callback,
      byte[] body) throws Refused {
    switch (path) {
      case "/v2/watch" -> watch(request, response, callback, body);
      case "/v2/kvasir/queue/next" -> queueNext(path, request, response, callback, body);
      case "/v2/kvasir/queue/renew" -> queueRenew(request, response, callback, body);
      case "/v2/kvasir/queue/finish" -> queueFinish(request, response, callback, body);
      case "/v2/kvasir/queue/cancel" -> queueCancel(request, response, callback, body);
      default -> throw new Refused(404, "Resource not found.");
    }
  }

  /**
   * Runs {@code step} on a thread of the server's pool, where it may wait, answering its refusal
   * or failure as {@link #answer} does; the request counts as in flight until it returns.
   */
  private void offload(String path, Request request, Response response, Callback callback,
      Step step) {
    inFlight.incrementAndGet();
    try {
      request.getComponents().getExecutor()
          .execute(() -> answerAndRelease(path, response, callback, step));
    } catch (RejectedExecutionException e) { // the server is stopping
      inFlight.decrementAndGet();
      throw new KvClosedException();
    }
  }

  /** {@link #answer}s {@code step} of a request counted in flight, which then no longer is. */
  private void answerAndRelease(String path, Response response, Callback callback, Step step) {
    try {
      answer(path, response, callback, step);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /**
   * Runs {@code step}, answering its refusal or failure with the status it calls for: the one
   * table from exceptions to HTTP statuses.
   *
   * @return whether the step went through (nothing was answered)
   */
  private boolean answer(String path, Response response, Callback callback, Step step) {
    try {
      step.run();
      return true;
    } catch (Refused r) {
      if (r.status == 503) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      }
      send(response, callback, r.status, r.getMessage());
    } catch (KvTypeException e) {
      response.getHeaders().put(ERROR_KIND, "type");
      send(response, callback, 400, e.getMessage());
    } catch (KvLimitException e) {
      response.getHeaders().put(ERROR_KIND, "limit");
      send(response, callback, 400, e.getMessage());
    } catch (BadRequestException e) {
      send(response, callback, 400, e.getMessage());
    } catch (KvCorruptEntryException e) {
      // A stored entry no client could read: a deterministic answer, never a 5xx that Deno
      // would retry forever.
      send(response, callback, 422, e.getMessage());
    } catch (KvClosedException e) {
      send(response, callback, 503, "The server is temporarily unavailable, try again later.");
    } catch (KvUnavailableException e) {
      // The storage failed (a full disk, a lost database connection): clients retry.
      answerUnavailable(path, response, callback, e, e.getMessage());
    } catch (RuntimeException e) {
      Optional<String> problem = storageProblem();
      if (problem.isPresent()) {
        // A known fault of the storage (a damaged file), which readiness reports too: no bug
        // to trace, and the client may be told.
        answerUnavailable(path, response, callback, e, problem.get());
      } else {
        LOG.error("{} failed", path, e);
        send(response, callback, 500, "An internal server error occurred.");
      }
    }
    return false;
  }

  /**
   * Answers 503 with {@code why} for a fault of the storage, logged at most once a minute:
   * clients retry, and each retry would log again.
   */
  private void answerUnavailable(String path, Response response, Callback callback,
      RuntimeException e, String why) {
    unavailable.warn("{} failed: {}", path, e.getMessage());
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    send(response, callback, 503, why);
  }

  /** The engine's {@link KvEngine#storageProblem()}; empty if it cannot tell (closed). */
  private Optional<String> storageProblem() {
    try {
      return engine.storageProblem();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static AccessToken token(Request request) {
    return (AccessToken) request.getAttribute(TOKEN);
  }

  private void checkDatabaseId(Request request) throws Refused {
    String id = request.getHeaders().get("x-denokv-database-id");
    if (id == null) {
      id = request.getHeaders().get("x-transaction-domain-id"); // protocol version 1
    }
    if (id != null && !id.equalsIgnoreCase(databaseId.toString())) {
      throw new Refused(400, "Invalid database id.");
    }
  }

  private void metadata(Request request, Response response, Callback callback, byte[] bytes)
      throws Refused {
    String body = new String(bytes, StandardCharsets.UTF_8);
    if (body.isBlank()) {
      throw new Refused(400, "The metadata request needs a body such as"
          + " {\"supportedVersions\":[1,2,3]}.");
    }
    int version = Metadata.offeredVersions(body).stream().filter(versions::contains)
        .max(Integer::compare).orElseThrow(() -> new Refused(400, "The server could not"
            + " negotiate a protocol version. The server supports protocol versions "
            + listed(versions) + "."));
    // Version 1 needs an absolute endpoint URL (§9.2).
    String path = ForwardedPrefix.of(request, proxies) + "/v2";
    String endpoint = version == 1
        ? request.getHttpURI().getScheme() + "://" + request.getHttpURI().getAuthority() + path
        : path;
    Metadata m = new Metadata(version, databaseId, List.of(new Metadata.Endpoint(endpoint, true)),
        token(request).secret(),
        Instant.now().plus(metadataLifetime).truncatedTo(ChronoUnit.MILLIS));
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    // Kvasir's client reads this; Deno's and Node's ignore headers they do not know.
    response.getHeaders().put(QUEUES_OFFERED, "1");
    response.write(true, ByteBuffer.wrap(m.toJson().getBytes(StandardCharsets.UTF_8)), callback);
  }

  /** "1, 2 and 3", as denokv words it. */
  private static String listed(Set<Integer> versions) {
    List<String> sorted = new TreeSet<>(versions).stream().map(String::valueOf).toList();
    int last = sorted.size() - 1;
    return last == 0 ? sorted.get(0)
        : String.join(", ", sorted.subList(0, last)) + " and " + sorted.get(last);
  }

  /** The data-path request's message: database id checked, body bounded, then parsed. */
  private <T> T dataRequest(Request request, byte[] body, Parser<T> parser) throws Refused {
    checkDatabaseId(request);
    try {
      return parser.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new Refused(400, "Request protobuf is invalid: " + e.getMessage() + ".");
    }
  }

  private void snapshotRead(Request request, Response response, Callback callback, byte[] body)
      throws Refused {
    var ranges = Wire.readRanges(dataRequest(request, body, SnapshotRead.parser()));
    Permissions.checkRead(token(request), ranges);
    long entries = ReadRange.entriesAsked(ranges);
    long room = entries * MOST_BYTES_PER_ENTRY_READ;
    CompletableFuture<Void> taken = memory.takeForRead(room);
    Step read = () -> readWithin(room, ranges, response, callback);
    if (taken.isDone() && engine.readsWithoutWaiting() && entries <= MAX_ENTRIES_READ_IN_PLACE) {
      read.run();
      return;
    }
    inFlight.incrementAndGet(); // while it waits for memory
    taken.orTimeout(bodyDeadline.toMillis(), TimeUnit.MILLISECONDS).whenComplete((v, failure) ->
        answerAndRelease("/v2/snapshot_read", response, callback, () -> {
          if (failure != null) {
            memory.abandon(taken);
            throw memory.refusal();
          }
          try {
            offload("/v2/snapshot_read", request, response, callback, read);
          } catch (RuntimeException e) { // the server is stopping
            memory.giveForRead(room);
            throw e;
          }
        }));
  }

  /**
   * Reads {@code ranges} and sends the answer, within {@code room} bytes taken from {@link
   * #memory} for it: what the answer does not need is given back at once, the rest once it is
   * sent, so that a client that does not read its answers makes others wait, not the heap fill.
   */
  private void readWithin(long room, List<ReadRange> ranges, Response response,
      Callback callback) {
    byte[] answer;
    try {
      answer = Wire.snapshotReadOutput(engine.snapshotRead(ranges, Consistency.STRONG))
          .toByteArray();
    } catch (RuntimeException e) {
      memory.giveForRead(room);
      throw e;
    }
    long kept = answer.length;
    if (kept <= room) {
      memory.giveForRead(room - kept);
    } else {
      memory.takeAnywayForRead(kept - room); // values stored beyond Deno's limits
    }
    sendProtobuf(response, Callback.from(callback, () -> memory.giveForRead(kept)), answer);
  }

  private void atomicWrite(Request request, Response response, Callback callback, byte[] body)
      throws Refused {
    var write = Wire.atomicWrite(dataRequest(request, body,
        dev.kvasir.connect.proto.AtomicWrite.parser()));
    permissions.checkWrite(token(request), write);
    String key = request.getHeaders().get(Wire.IDEMPOTENCY_KEY_HEADER);
    if (key != null) {
      try {
        write = write.withIdempotencyKey(key);
      } catch (IllegalArgumentException e) {
        throw new Refused(400, "Invalid " + Wire.IDEMPOTENCY_KEY_HEADER + ": " + e.getMessage());
      }
    }
    AtomicWrite accepted = write;
    boolean retrySafe = key != null;
    if (!engine.writesWithoutWaiting()) {
      offload("/v2/atomic_write", request, response, callback, () -> {
        Optional<Versionstamp> committed;
        try {
          committed = engine.atomicWrite(accepted);
        } catch (KvUnavailableException e) {
          refuseIfOutcomeUnknown(e, retrySafe);
          throw e;
        }
        answerCommit(response, callback, committed);
      });
      return;
    }
    // Answered from the thread that completes the commit (the engine's commit thread), so the
    // request changes threads once instead of up to three times (docs/kv-connect.md §13).
    inFlight.incrementAndGet();
    CompletableFuture<Optional<Versionstamp>> commit;
    try {
      commit = engine.atomicWriteAsync(accepted);
    } catch (RuntimeException e) {
      inFlight.decrementAndGet();
      throw e;
    }
    commit.whenComplete((committed, failure) ->
        answerAndRelease("/v2/atomic_write", response, callback, () -> {
          if (failure != null) {
            RuntimeException e = unwrapped(failure);
            if (e instanceof KvUnavailableException u) {
              refuseIfOutcomeUnknown(u, retrySafe);
            }
            throw e;
          }
          answerCommit(response, callback, committed);
        }));
  }

  /**
   * A commit that failed in a way that may nevertheless have applied it (a connection lost while
   * committing, a failed sync), for a client that sent no idempotency key: Deno and Node retry
   * every 5xx, and the retry could apply the write a second time, so they are told 409 with the
   * reason, which they raise to the application (docs/kv-connect.md §9). With a key, or when
   * nothing was applied, it stays a 503, safe to retry.
   */
  private static void refuseIfOutcomeUnknown(KvUnavailableException e, boolean retrySafe)
      throws Refused {
    if (!retrySafe && e.maybeApplied()) {
      throw new Refused(409, "The outcome of this commit is unknown: it may or may not have"
          + " been applied (" + e.getMessage() + "). Read the keys it writes before writing"
          + " again: a retry could apply it twice.");
    }
  }

  private void answerCommit(Response response, Callback callback,
      Optional<Versionstamp> committed) {
    onCommit.accept(committed.isPresent());
    sendProtobuf(response, callback, Wire.atomicWriteOutput(committed).toByteArray());
  }

  /** The engine's exception behind a failed future, to be answered as if thrown directly. */
  private static RuntimeException unwrapped(Throwable failure) {
    Throwable cause = cause(failure);
    return cause instanceof RuntimeException r ? r
        : new KvException("the commit failed: " + cause, cause);
  }

  /** What failed a future: the cause a {@link CompletionException} wraps, else the failure. */
  private static Throwable cause(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
  }

  private void watch(Request request, Response response, Callback callback, byte[] body)
      throws Refused {
    Watch watch = dataRequest(request, body, Watch.parser());
    var keys = Wire.watchKeys(watch);
    Permissions.checkWatch(token(request), keys);
    String connection = request.getConnectionMetaData().getId();
    String refused = watchLimits.admit(connection);
    if (refused != null) {
      throw new Refused(429, refused);
    }
    EngineWatch engineWatch;
    try {
      engineWatch = engine.watch(keys);
    } catch (RuntimeException e) {
      watchLimits.release(connection);
      throw e;
    }
    if (streams.start(engineWatch, request, response, callback,
        () -> watchLimits.release(connection))) {
      return; // no thread waits: the stream runs on change notifications
    }
    watches.add(engineWatch);
    try {
      WatchStreamer.stream(engineWatch, response, callback);
    } finally {
      watches.remove(engineWatch);
      watchLimits.release(connection);
    }
  }

  /**
   * A remote listener's long poll (docs/kv-connect.md §10): answered, from a thread of the
   * gateway's, with a leased message or 204 when none became due in time. A message whose
   * answer cannot be sent waits for the next poll.
   */
  private void queueNext(String path, Request request, Response response, Callback callback,
      byte[] body) throws Refused {
    QueueNext poll = dataRequest(request, body, QueueNext.parser());
    permissions.checkQueue(token(request));
    var next = queues.next(Duration.ofMillis(Math.max(0, poll.getWaitMs())), poll.getPollId());
    if (next == null) {
      throw new Refused(429, "As many clients wait for queue messages as this server allows ("
          + queues.maxPolls() + "); try again shortly.");
    }
    next.whenComplete((lease, failure) -> answer(path, response, callback, () -> {
      if (failure != null) {
        throw failure instanceof RuntimeException r ? r
            : new KvException("taking a queue message failed: " + failure, failure);
      }
      if (lease == null) {
        response.setStatus(204);
        response.write(true, null, callback);
        return;
      }
      byte[] bytes = QueueMessage.newBuilder().setLeaseId(lease.id())
          .setPayload(ByteString.copyFrom(lease.message().payload().bytes()))
          .setEncoding(lease.message().payload().code())
          .setLeaseMs(lease.lasts().toMillis()).build().toByteArray();
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, PROTOBUF);
      response.write(true, ByteBuffer.wrap(bytes), Callback.from(callback::succeeded, x -> {
        queues.unclaimed(lease);
        callback.failed(x);
      }));
    }));
  }

  private void queueRenew(Request request, Response response, Callback callback, byte[] body)
      throws Refused {
    QueueRenew renew = dataRequest(request, body, QueueRenew.parser());
    permissions.checkQueue(token(request));
    sendProtobuf(response, callback, QueueRenewOutput.newBuilder()
        .addAllLostLeaseIds(queues.renew(renew.getLeaseIdsList())).build().toByteArray());
  }

  private void queueFinish(Request request, Response response, Callback callback, byte[] body)
      throws Refused {
    QueueFinish finish = dataRequest(request, body, QueueFinish.parser());
    permissions.checkQueue(token(request));
    if (queues.finish(finish.getLeaseId(), finish.getSuccess(), finish.getReleased())) {
      sendProtobuf(response, callback, new byte[0]);
    } else {
      response.setStatus(204); // not held any more: its lease ran out, or the server gave it back
      response.write(true, null, callback);
    }
  }

  private void queueCancel(Request request, Response response, Callback callback, byte[] body)
      throws Refused {
    QueueCancel cancel = dataRequest(request, body, QueueCancel.parser());
    permissions.checkQueue(token(request));
    queues.cancel(cancel.getPollId());
    sendProtobuf(response, callback, new byte[0]);
  }

  int openWatches() {
    return watchLimits.open();
  }

  /** The bytes of request bodies and read answers held now (docs/operations.md §10). */
  long bodyMemoryHeld() {
    return memory.held();
  }

  long bodyMemoryLimit() {
    return memory.limit();
  }

  int queueLeases() {
    return queues.leasedNow();
  }

  /** Whether {@link #drain} began: the server is stopping. */
  boolean isDraining() {
    return stopping;
  }

  /**
   * Refuses new requests with 503 (clients retry), ends every watch stream (clients reconnect),
   * takes no more queue messages, and waits up to {@code timeout} for the other requests in
   * flight and for remote listeners to report the messages they are handling; the messages
   * still held then go back to the queue.
   */
  void drain(Duration timeout) throws InterruptedException {
    stopping = true;
    queues.stopTaking();
    streams.close();
    watches.forEach(EngineWatch::close);
    long deadline = System.nanoTime() + timeout.toNanos();
    while ((inFlight.get() > 0 || queues.leasedNow() > 0) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    queues.close();
  }

  private static void sendProtobuf(Response response, Callback callback, byte[] bytes) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, PROTOBUF);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  private static void send(Response response, Callback callback, int status, String message) {
    if (response.isCommitted()) {
      callback.failed(new KvException(message));
      return;
    }
    Replies.send(response, callback, status, Replies.TEXT, message);
  }
}
