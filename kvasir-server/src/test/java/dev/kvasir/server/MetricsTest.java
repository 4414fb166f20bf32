package dev.kvasir.server;

import static dev.kvasir.testkit.PrometheusText.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.memory.MemoryEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} after a known load: the counters match what was sent. */
class MetricsTest {
  private static final String METRICS_TOKEN = "metrics-token-0123456789";
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> scrape(KvServer server, String token) throws Exception {
    return http.send(get(server, "Authorization", token == null ? null : "Bearer " + token),
        HttpResponse.BodyHandlers.ofString());
  }

  /** {@code GET /metrics}, with the header {@code name} unless {@code value} is null. */
  private static HttpRequest get(KvServer server, String name, String value) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + "/metrics"));
    if (value != null) {
      b.header(name, value);
    }
    return b.build();
  }

  @Test
  void scrape_afterALoad_countsWhatWasSent() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MemoryEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .metrics(registry).metricsToken(METRICS_TOKEN).maxBodyMemory(64 << 20).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN))) {
      for (int i = 0; i < 5; i++) {
        kv.set(KvKey.of("k", i), i);
      }
      for (int i = 0; i < 3; i++) {
        kv.get(KvKey.of("k", i));
      }
      assertThat(kv.atomic().check(KvKey.of("k", 0), Versionstamp.parse("00000000000000000001"))
          .set(KvKey.of("k", 0), -1).commit().ok()).isFalse();
      try (WatchStream watch = kv.watch(List.of(KvKey.of("k", 0)))) {
        watch.next();
        assertThat(scrape(server, null).statusCode()).isEqualTo(401);
        assertThat(scrape(server, "wrong-token-0123456789").statusCode()).isEqualTo(401);
        String text = awaitCounts(server);
        assertThat(sample(text, "kvasir_server_requests_seconds_count",
            "endpoint=\"atomic_write\",status=\"200\"")).isEqualTo(6);
        assertThat(sample(text, "kvasir_server_requests_seconds_count",
            "endpoint=\"snapshot_read\",status=\"200\"")).isEqualTo(3);
        assertThat(sample(text, "kvasir_server_commits_total", "outcome=\"committed\""))
            .isEqualTo(5);
        assertThat(sample(text, "kvasir_server_commits_total", "outcome=\"check_failed\""))
            .isEqualTo(1);
        assertThat(sample(text, "kvasir_server_watches_open", "")).isEqualTo(1);
        // Every request answered: no body or answer held (docs/operations.md §10).
        assertThat(sample(text, "kvasir_server_body_memory_bytes", "")).isZero();
        assertThat(sample(text, "kvasir_server_body_memory_max_bytes", "")).isEqualTo(64 << 20);
        assertThat(text).contains("kvasir_server_requests_seconds_bucket{")
            .contains("jvm_memory_used_bytes{").contains("jvm_info{");
        // The version serving (from the jar's manifest; compiled classes have none), and the
        // open files the connection limit is drawn from.
        assertThat(sample(text, "kvasir_build_info", "version=\"" + ServerMetrics.version()
            + "\"")).isEqualTo(1);
        assertThat(sample(text, "process_files_open_files", "")).isPositive();
        assertThat(sample(text, "process_files_max_files", "")).isPositive();
        // The engine's own meters: the memory engine's sweeps and queue.
        assertThat(sample(text, "kvasir_engine_sweeps_total", "outcome=\"done\""))
            .isGreaterThanOrEqualTo(0);
        assertThat(sample(text, "kvasir_engine_queue_messages", "state=\"ready\""))
            .isZero();
        // Meters of one name share their description, which Prometheus shows once for all.
        Map<String, Set<String>> descriptions = new TreeMap<>();
        registry.getMeters().forEach(m -> descriptions.computeIfAbsent(m.getId().getName(),
            name -> new TreeSet<>()).add(String.valueOf(m.getId().getDescription())));
        assertThat(descriptions).allSatisfy((name, texts) -> assertThat(texts).as(name)
            .hasSize(1));
        assertThat(text).contains("# HELP kvasir_server_commits_total Atomic writes the engine"
            + " answered, by outcome: committed or check_failed");
      }
    }
  }

  /** What Prometheus 3 sends by default: OpenMetrics first, Prometheus's text after it. */
  private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0;"
      + "escaping=allow-utf-8,application/openmetrics-text;version=0.0.1;q=0.75,"
      + "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.5,text/plain;version=0.0.4;q=0.4,"
      + "*/*;q=0.1";

  private HttpResponse<byte[]> scrapeAccepting(KvServer server, String accept) throws Exception {
    return http.send(get(server, "Accept", accept), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void scrape_answersInTheFormatTheAcceptHeaderAsksFor_andHeadAsGetWithoutTheBody()
      throws Exception {
    // Before, every scrape got Prometheus's text 0.0.4, whatever the scraper asked for.
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MemoryEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .metrics(registry).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN))) {
      kv.set(KvKey.of("k"), 1);

      HttpResponse<byte[]> plain = scrapeAccepting(server, null);
      assertThat(plain.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(new String(plain.body(), StandardCharsets.UTF_8))
          .contains("# TYPE kvasir_server_commits_total counter").doesNotContain("# EOF");

      HttpResponse<byte[]> open = scrapeAccepting(server, PROMETHEUS_ACCEPT);
      assertThat(open.statusCode()).isEqualTo(200);
      assertThat(open.headers().firstValue("Content-Type"))
          .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
      assertThat(open.headers().firstValue("Vary")).hasValue("Accept");
      String openText = new String(open.body(), StandardCharsets.UTF_8);
      assertThat(openText).contains("# TYPE kvasir_server_commits counter")
          .contains("kvasir_server_commits_total{outcome=\"committed\"} 1").endsWith("# EOF\n");

      // HEAD, which every HTTP server must take, is GET without the body; it was 405.
      HttpResponse<Void> head = http.send(HttpRequest.newBuilder(URI.create(server.url()
          + "/metrics")).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");

      HttpResponse<byte[]> binary = scrapeAccepting(server, "application/vnd.google.protobuf;"
          + "proto=io.prometheus.client.MetricFamily;encoding=delimited");
      assertThat(binary.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
          assertThat(type).startsWith("application/vnd.google.protobuf;"));
      assertThat(new String(binary.body(), StandardCharsets.ISO_8859_1))
          .contains("kvasir_server_commits_total").doesNotContain("# TYPE");
    }
  }

  @Test
  void aServerClosed_removesItsGaugesAndItsEngines_soThatOneStartedOnTheSameRegistryIsMeasured()
      throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MemoryEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .metrics(registry).start()) {
      assertThat(registry.find("kvasir.server.watches.open").gauge()).isNotNull();
    }
    // What stays counts the requests answered, as a counter of the process.
    assertThat(registry.getMeters().stream().map(m -> m.getId().getName())
        .filter(name -> name.startsWith("kvasir.")).distinct())
        .as("meters left reading the closed server and its engine")
        .isSubsetOf("kvasir.server.requests", "kvasir.server.commits");
    // Before, the first server's gauges stayed registered, and the second's, of the same
    // names, were never read: its watches counted 0 for good.
    try (MemoryEngine engine = MemoryEngine.open();
        KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
            .metrics(registry).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", Served.TOKEN));
        WatchStream watch = kv.watch(List.of(KvKey.of("k")))) {
      watch.next();
      assertThat(registry.get("kvasir.server.watches.open").gauge().value()).isEqualTo(1);
    }
  }

  /**
   * A scrape in which the load has been counted: a request is metered once its response is
   * complete, which may be just after the client has it.
   */
  private String awaitCounts(KvServer server) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      HttpResponse<String> r = scrape(server, METRICS_TOKEN);
      assertThat(r.statusCode()).isEqualTo(200);
      boolean counted = sample(r.body(), "kvasir_server_requests_seconds_count",
          "endpoint=\"snapshot_read\",status=\"200\"") >= 3
          && sample(r.body(), "kvasir_server_requests_seconds_count",
          "endpoint=\"atomic_write\",status=\"200\"") >= 6;
      if (counted || System.nanoTime() > deadline) {
        return r.body();
      }
      Thread.sleep(50);
    }
  }
}
