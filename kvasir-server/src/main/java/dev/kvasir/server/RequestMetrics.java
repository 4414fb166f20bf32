package dev.kvasir.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.EventsHandler;

/**
 * Meters every request once it completed (docs/operations.md §5): {@code
 * kvasir.server.requests}, a timer with a latency histogram, tagged with the endpoint and the
 * status. A watch stream is timed over its whole life.
 */
final class RequestMetrics extends EventsHandler {
  private final MeterRegistry registry;
  private final Counter committed;
  private final Counter checkFailed;
  /** The timer of each endpoint and status met so far: no builder on every request. */
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  /** Meters into {@code registry}; the handler it wraps is set later. */
  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
    // One description for both: Prometheus has one HELP per name, and showed the last one
    // registered ("refused by a failed check") over the applied writes too.
    String commits = "Atomic writes the engine answered, by outcome: committed or check_failed";
    this.committed = Counter.builder("kvasir.server.commits").tag("outcome", "committed")
        .description(commits).register(registry);
    this.checkFailed = Counter.builder("kvasir.server.commits").tag("outcome", "check_failed")
        .description(commits).register(registry);
  }

  /** Counts an atomic write the engine answered: applied, or a check failed. */
  void commit(boolean applied) {
    (applied ? committed : checkFailed).increment();
  }

  @Override
  protected void onComplete(Request request, int status, HttpFields headers, Throwable failure) {
    long nanos = System.nanoTime() - request.getBeginNanoTime();
    String endpoint = endpoint(Request.getPathInContext(request));
    timers.computeIfAbsent(endpoint + " " + status, k -> Timer.builder("kvasir.server.requests")
        .description("KV Connect and probe requests, by endpoint and status")
        .tag("endpoint", endpoint)
        .tag("status", Integer.toString(status))
        .publishPercentileHistogram()
        .maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** A bounded set of tag values, whatever paths clients invent. */
  private static String endpoint(String path) {
    return switch (path) {
      case "/" -> "metadata";
      case "/v2/snapshot_read" -> "snapshot_read";
      case "/v2/atomic_write" -> "atomic_write";
      case "/v2/watch" -> "watch";
      case "/v2/kvasir/queue/next" -> "queue_next";
      case "/v2/kvasir/queue/renew" -> "queue_renew";
      case "/v2/kvasir/queue/finish" -> "queue_finish";
      case "/v2/kvasir/queue/cancel" -> "queue_cancel";
      case "/healthz" -> "healthz";
      case "/readyz" -> "readyz";
      case "/metrics" -> "metrics";
      default -> "other";
    };
  }
}
