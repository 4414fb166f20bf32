package dev.kvasir.server;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A test's proxy before a real {@link KvServer} ({@link LoopbackFront}) that passes every
 * request through, except the data calls it is told to refuse: those it answers itself, with
 * the status it is given. Proxies answer 408 when a request's body is late, and 503 when they
 * have no backend.
 *
 * <p>The metadata exchange always passes: its endpoints are relative, so the client sends its
 * data calls here too.
 */
final class RefusingFront extends LoopbackFront {
  private final AtomicInteger toRefuse = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final AtomicInteger passed = new AtomicInteger();
  private volatile int status;

  RefusingFront(String backend) throws Exception {
    super(backend);
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

  @Override
  void answer(Request request, Response response, Callback callback) throws Exception {
    boolean data = !Request.getPathInContext(request).equals("/");
    // Read before refusing, as a proxy does that waited for the body.
    byte[] body = Content.Source.asInputStream(request).readAllBytes();
    if (data && toRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      refused.incrementAndGet();
      reply(response, callback, status, "text/plain", "refused by the front with " + status);
      return;
    }
    if (data) {
      passed.incrementAndGet();
    }
    HttpResponse<byte[]> real = forward(request, body);
    response.setStatus(real.statusCode());
    real.headers().map().forEach((name, values) -> {
      if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
        response.getHeaders().put(name, List.copyOf(values));
      }
    });
    response.write(true, ByteBuffer.wrap(real.body()), callback);
  }
}
