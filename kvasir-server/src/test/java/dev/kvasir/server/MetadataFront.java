package dev.kvasir.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A test's metadata endpoint that can fail alone: a loopback h2c server that passes the
 * metadata exchange through to a real {@link KvServer} and points the client's data calls
 * straight at that server, so that, told to fail, it answers only the exchange with a 503. The
 * answer's endpoint is absolute, which the client takes in every protocol version
 * (docs/kv-connect.md §2).
 */
final class MetadataFront extends LoopbackFront {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AtomicInteger refused = new AtomicInteger();
  private volatile boolean failing;

  MetadataFront(String backend) throws Exception {
    super(backend);
  }

  /** From now on, every exchange is answered with a 503. */
  void fail() {
    failing = true;
  }

  /** From now on, exchanges are passed through again. */
  void heal() {
    failing = false;
  }

  /** How many exchanges were answered with a 503. */
  int refused() {
    return refused.get();
  }

  @Override
  void answer(Request request, Response response, Callback callback) throws Exception {
    if (failing) {
      refused.incrementAndGet();
      reply(response, callback, 503, "text/plain", "the metadata endpoint is down");
      return;
    }
    byte[] body = Content.Source.asInputStream(request).readAllBytes();
    HttpResponse<byte[]> real = forward(request, body);
    String text = new String(real.body(), StandardCharsets.UTF_8);
    if (real.statusCode() == 200) {
      JsonNode metadata = JSON.readTree(text);
      for (JsonNode endpoint : metadata.get("endpoints")) {
        String url = endpoint.get("url").asText();
        ((ObjectNode) endpoint).put("url", URI.create(backend + "/").resolve(url).toString());
      }
      text = JSON.writeValueAsString(metadata);
    }
    real.headers().firstValue(ConnectHandler.QUEUES_OFFERED)
        .ifPresent(v -> response.getHeaders().put(ConnectHandler.QUEUES_OFFERED, v));
    reply(response, callback, real.statusCode(),
        real.headers().firstValue("content-type").orElse("text/plain"), text);
  }
}
