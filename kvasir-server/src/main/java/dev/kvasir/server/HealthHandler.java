package dev.kvasir.server;

import dev.kvasir.base.Consistency;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The probes load balancers and orchestrators poll, without a token (docs/operations.md §1):
 * {@code GET /healthz} answers 200 while the process serves, touching nothing else; {@code GET
 * /readyz} answers 200 once the database answered a read within the deadline and its engine
 * knows of no {@link KvEngine#storageProblem() problem with its storage}, 503 otherwise and
 * while the server drains. One read serves every probe within {@link #READY_CACHE_MS}, and
 * it runs on a thread of its own, so a database that hangs holds no request thread. Every other
 * request goes on to KV Connect. Jetty may call it on its selector (docs/kv-connect.md §13), so
 * a readiness answer, which may wait for the probe, is made on a thread of the server's pool.
 */
final class HealthHandler extends Handler.Wrapper {
  /** How long a readiness answer is reused: probes every second cost one read a second. */
  static final long READY_CACHE_MS = 1_000;
  private static final String STOPPING = "not ready: the server is stopping\n";
  /** Any key: the probe reads it and ignores what it finds. */
  private static final ReadRange PROBE = ReadRange.single(RawKey.wrap(new byte[] {0x01}));

  private final KvEngine engine;
  private final Duration deadline;
  private final BooleanSupplier draining;
  private final ExecutorService prober = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "kvasir-readiness");
    t.setDaemon(true);
    return t;
  });
  private boolean probing; // guarded by this
  private long probeStartedMs; // guarded by this
  private long probedAtMs; // guarded by this
  private String notReady = "not probed yet"; // guarded by this; null when ready

  HealthHandler(Handler next, KvEngine engine, Duration deadline, BooleanSupplier draining) {
    super(next);
    this.engine = engine;
    this.deadline = deadline;
    this.draining = draining;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    if (!path.equals("/healthz") && !path.equals("/readyz")) {
      return super.handle(request, response, callback);
    }
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      return answer(response, callback, 405, "probes take GET\n");
    }
    if (path.equals("/healthz")) {
      return answer(response, callback, 200, "ok\n");
    }
    if (draining.getAsBoolean()) {
      return answer(response, callback, 503, STOPPING);
    }
    return Replies.onPool(request, response, callback, STOPPING, () -> {
      String why;
      try {
        why = readiness();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        why = "the server is stopping";
      }
      if (why == null) {
        answer(response, callback, 200, "ready\n");
      } else {
        answer(response, callback, 503, "not ready: " + why + "\n");
      }
    });
  }

  /**
   * Null when the database answered a read lately; else why not. Waits for a probe at most until
   * its deadline; a probe still running after that is reported as such, without waiting again.
   */
  private synchronized String readiness() throws InterruptedException {
    long now = System.currentTimeMillis();
    if (!probing && probedAtMs > 0 && now - probedAtMs < READY_CACHE_MS) {
      return notReady;
    }
    if (!probing) {
      probing = true;
      probeStartedMs = now;
      prober.execute(this::probe);
    }
    long until = probeStartedMs + deadline.toMillis();
    while (probing) {
      if (now >= until) {
        return "the database did not answer a read within " + deadline.toMillis() + " ms";
      }
      wait(until - now);
      now = System.currentTimeMillis();
    }
    return notReady;
  }

  private void probe() {
    String outcome = null;
    try {
      outcome = engine.storageProblem().orElse(null); // the clearer reason when both fail
      if (outcome == null) {
        engine.snapshotRead(List.of(PROBE), Consistency.STRONG);
      }
    } catch (RuntimeException e) {
      outcome = "the database failed a read: " + e.getMessage();
    }
    synchronized (this) {
      notReady = outcome;
      probedAtMs = System.currentTimeMillis();
      probing = false;
      notifyAll();
    }
  }

  private static boolean answer(Response response, Callback callback, int status, String body) {
    return Replies.send(response, callback, status, Replies.TEXT, body);
  }

  @Override
  protected void doStop() throws Exception {
    prober.shutdownNow();
    super.doStop();
  }
}
