package dev.kvasir.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 * server speaking HTTP/1.1 and h2c whose subclass answers each request, passing it through or
 * not.
 */
abstract class LoopbackFront implements AutoCloseable {
  private final Server jetty = new Server();
  private final ServerConnector connector;

  LoopbackFront() throws Exception {
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
