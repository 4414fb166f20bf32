package dev.kvasir.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /metrics}: the registry in the format the scraper's {@code Accept} header asks
 * for, Prometheus's text by default, OpenMetrics or protobuf on request (docs/operations.md §5),
 * behind its own bearer token when one is set, so a scraper needs no database token. The
 * scrape, which reads every meter, runs on a thread of the server's pool, not on the selector
 * Jetty may call this on (docs/kv-connect.md §13); 503 if that pool is stopping.
 */
final class MetricsHandler extends Handler.Wrapper {
  /**
   * The Prometheus client's formats, which choose a writer for an Accept header as the registry
   * does when it scrapes; asked here only for that writer's content type.
   */
  private static final ExpositionFormats FORMATS = ExpositionFormats.init();

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
    // HEAD as every HTTP server must take it (RFC 9110 §9.1), answered as GET without the body.
    if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      return Replies.send(response, callback, 405, Replies.TEXT, "metrics take GET\n");
    }
    if (token != null) {
      byte[] given = Replies.bearer(request);
      if (given == null || !MessageDigest.isEqual(given, token)) { // constant time
        return Replies.send(response, callback, 401, Replies.TEXT,
            "the metrics need 'Authorization: Bearer <metrics token>'\n");
      }
    }
    String accept = String.join(",", request.getHeaders().getValuesList(HttpHeader.ACCEPT));
    return Replies.onPool(request, response, callback, "the server is stopping\n", () -> {
      ExpositionFormatWriter format = FORMATS.findWriter(accept);
      response.getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT.asString());
      Replies.send(response, callback, 200, format.getContentType(), scrape(accept));
    });
  }

  /** The registry in the format {@code accept} picks, as {@link #FORMATS} picks it. */
  private byte[] scrape(String accept) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
    try {
      registry.scrape(out, accept);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // cannot happen: the stream is in memory
    }
    return out.toByteArray();
  }
}
