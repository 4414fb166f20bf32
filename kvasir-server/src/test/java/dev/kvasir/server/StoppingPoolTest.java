package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.memory.MemoryEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The probe and the scrape answer on a thread of the server's pool. While the server stops, that
 * pool refuses new tasks; both then answer 503, as KV Connect's requests do, and not the 500 Jetty
 * makes of an exception. A real Jetty server whose pool refuses exactly the tasks the two
 * handlers hand it, so that Jetty's own work goes on.
 */
class StoppingPoolTest {
  /** Set on the thread that runs the handlers, for the length of one request. */
  private static final ThreadLocal<Boolean> IN_HANDLER = ThreadLocal.withInitial(() -> false);

  /** A pool that refuses what the handlers give it, as Jetty's does once it is stopping. */
  private static final class RefusingPool extends QueuedThreadPool {
    volatile boolean refuse;

    @Override
    public void execute(Runnable task) {
      if (refuse && IN_HANDLER.get()) {
        throw new RejectedExecutionException("the pool is stopping");
      }
      super.execute(task);
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();
  private final RefusingPool pool = new RefusingPool();
  private MemoryEngine engine;
  private Server jetty;
  private ServerConnector connector;

  @BeforeEach
  void start() throws Exception {
    engine = MemoryEngine.open();
    jetty = new Server(pool);
    connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    Handler none = new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        return false;
      }
    };
    Handler chain = new HealthHandler(new MetricsHandler(none,
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), null), engine,
        Duration.ofSeconds(5), () -> false);
    jetty.setHandler(new Handler.Wrapper(chain) {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        IN_HANDLER.set(true);
        try {
          return super.handle(request, response, callback);
        } finally {
          IN_HANDLER.set(false);
        }
      }
    });
    jetty.start();
  }

  @AfterEach
  void stop() throws Exception {
    jetty.stop();
    engine.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + connector.getLocalPort() + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void probeAndScrape_whileThePoolRefuses_answer503() throws Exception {
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
    assertThat(get("/metrics").statusCode()).isEqualTo(200);

    pool.refuse = true;
    HttpResponse<String> ready = get("/readyz");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).isEqualTo("not ready: the server is stopping\n");
    assertThat(ready.headers().firstValue("Cache-Control")).hasValue("no-store");
    HttpResponse<String> metrics = get("/metrics");
    assertThat(metrics.statusCode()).isEqualTo(503);
    assertThat(metrics.body()).isEqualTo("the server is stopping\n");
    assertThat(get("/healthz").statusCode()).as("liveness needs no pool").isEqualTo(200);
  }
}
