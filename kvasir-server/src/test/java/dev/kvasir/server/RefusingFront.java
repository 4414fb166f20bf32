package dev.kvasir.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A test's front before a real {@link KvServer}, as a load balancer or proxy stands before one:
 * a loopback h2c server that passes every request through, except that it answers the data
 * calls it is told to refuse itself, with the status it is given, without passing them on. A
 * proxy answers 408 so when a request's body is late, and 503 when it has no backend.
 *
 * <p>The metadata exchange always passes: its endpoints are relative, so the client sends its
 * data calls here too.
 */
final class RefusingFront implements AutoCloseable {
  /** Headers the JDK's client sets itself and refuses to be given. */
  private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect",
      "host", "upgrade", "http2-settings", "te", "transfer-encoding");

  private final String backend;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private final Server jetty = new Server();
  private final ServerConnector connector;
  private final AtomicInteger toRefuse = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final AtomicInteger passed = new AtomicInteger();
  private volatile int status;

  RefusingFront(String backend) throws Exception {
    this.backend = backend;
    HttpConfiguration config = new HttpConfiguration();
    connector = new ServerConnector(jetty, new HttpConnectionFactory(config),
        new HTTP2CServerConnectionFactory(config));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    jetty.setHandler(new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        answer(request, response, callback);
        return true;
      }
    });
    jetty.start();
  }

  String url() {
    return "http://127.0.0.1:" + connector.getLocalPort();
  }

  /** The next {@code count} data calls are answered with {@code status} here. */
  void refuseNext(int count, int status) {
    this.status = status;
    toRefuse.set(count);
  }

  /** How many data calls this front answered itself. */
  int refused() {
    return refused.get();
  }

  /** How many data calls reached the server. */
  int passed() {
    return passed.get();
  }

  private void answer(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    boolean data = !path.equals("/");
    // Read before refusing, as a proxy does that waited for the body.
    byte[] body = Content.Source.asInputStream(request).readAllBytes();
    if (data && toRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      refused.incrementAndGet();
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
      response.write(true, ByteBuffer.wrap(("refused by the front with " + status)
          .getBytes(StandardCharsets.UTF_8)), callback);
      return;
    }
    if (data) {
      passed.incrementAndGet();
    }
    HttpRequest.Builder forwarded = HttpRequest.newBuilder(URI.create(backend + path))
        .method(request.getMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
    for (HttpField field : request.getHeaders()) {
      if (!RESTRICTED.contains(field.getName().toLowerCase(Locale.ROOT))) {
        forwarded.header(field.getName(), field.getValue());
      }
    }
    HttpResponse<byte[]> real = http.send(forwarded.build(),
        HttpResponse.BodyHandlers.ofByteArray());
    response.setStatus(real.statusCode());
    real.headers().map().forEach((name, values) -> {
      if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
        response.getHeaders().put(name, List.copyOf(values));
      }
    });
    response.write(true, ByteBuffer.wrap(real.body()), callback);
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
