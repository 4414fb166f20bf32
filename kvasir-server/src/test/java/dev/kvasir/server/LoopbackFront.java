package dev.kvasir.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A test's server before a real {@link KvServer}, as a proxy stands before one: a loopback
 * server speaking HTTP/1.1 and h2c whose subclass answers each request, passing it through
 * ({@link #forward}) or not.
 */
abstract class LoopbackFront implements AutoCloseable {
  /** Headers the JDK's client sets itself and refuses to be given. */
  static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host",
      "upgrade", "http2-settings", "te", "transfer-encoding");

  final String backend;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private final Server jetty = new Server();
  private final ServerConnector connector;

  /** @param backend the URL of the server behind this front */
  LoopbackFront(String backend) throws Exception {
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

  final String url() {
    return "http://127.0.0.1:" + connector.getLocalPort();
  }

  abstract void answer(Request request, Response response, Callback callback) throws Exception;

  /** Sends {@code request}, whose body was read, to the same path of the server behind. */
  final HttpResponse<byte[]> forward(Request request, byte[] body) throws Exception {
    HttpRequest.Builder forwarded = HttpRequest.newBuilder(
        URI.create(backend + Request.getPathInContext(request)))
        .method(request.getMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
    for (HttpField field : request.getHeaders()) {
      if (!RESTRICTED.contains(field.getName().toLowerCase(Locale.ROOT))) {
        forwarded.header(field.getName(), field.getValue());
      }
    }
    return http.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  static void reply(Response response, Callback callback, int status, String contentType,
      String text) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
