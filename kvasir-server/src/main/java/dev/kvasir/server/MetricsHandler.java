package dev.kvasir.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /metrics}: the registry in Prometheus's text format (docs/operations.md §5),
 * behind its own bearer token when one is set, so a scraper needs no database token. The
 * scrape, which reads every meter, runs on a thread of the server's pool, not on the selector
 * Jetty may call this on (docs/kv-connect.md §13); 503 if that pool is stopping.
 */
final class MetricsHandler extends Handler.Wrapper {
  private final PrometheusMeterRegistry registry;
  private final byte[] token;

  /** {@code token} may be null: then the metrics are open to anyone who reaches the port. */
  MetricsHandler(Handler next, PrometheusMeterRegistry registry, String token) {
    super(next);
    this.registry = registry;
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!Request.getPathInContext(request).equals("/metrics")) {
      return super.handle(request, response, callback);
    }
    if (!HttpMethod.GET.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET");
      return Replies.send(response, callback, 405, Replies.TEXT, "metrics take GET\n");
    }
    if (token != null) {
      byte[] given = Replies.bearer(request);
      if (given == null || !MessageDigest.isEqual(given, token)) { // constant time
        return Replies.send(response, callback, 401, Replies.TEXT,
            "the metrics need 'Authorization: Bearer <metrics token>'\n");
      }
    }
    return Replies.onPool(request, response, callback, "the server is stopping\n",
        () -> Replies.send(response, callback, 200, "text/plain; version=0.0.4; charset=utf-8",
            registry.scrape()));
  }
}
