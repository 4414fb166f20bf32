package dev.kvasir.server;

import dev.kvasir.connect.Metadata;
import dev.kvasir.spi.KvEngine;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A KV Connect server (docs/kv-connect.md) for any {@link KvEngine}, so Deno ({@code
 * Deno.openKv("http://…")}), the {@code @deno/kv} Node client and Kvasir's {@code RemoteEngine}
 * share one database. One port speaks HTTP/1.1 and cleartext HTTP/2 (prior knowledge, as Deno
 * sends, and upgrade); with a keystore it speaks TLS with HTTP/2 (ALPN h2) and HTTP/1.1.
 *
 * <pre>{@code
 * try (KvServer server = KvServer.builder(engine).accessToken(token).port(4512).start()) {
 *   server.awaitStop();
 * }
 * }</pre>
 *
 * {@code GET /healthz} and {@code GET /readyz} answer probes without a token (docs/operations.md
 * §1).
 *
 * <p>The engine stays the caller's: {@link #close()} stops serving and leaves it open.
 */
public final class KvServer implements AutoCloseable {
  /** The SLF4J logger of the access log, at INFO (docs/operations.md §6). */
  public static final String ACCESS_LOGGER = "dev.kvasir.server.access";
  /** The shortest lease {@link Builder#queueLease} takes. */
  public static final Duration MIN_QUEUE_LEASE = Duration.ofMillis(100);
  /** HTTP/2 streams of a connection that its watches may not take: room for its other calls. */
  private static final int STREAMS_KEPT_FOR_REQUESTS = 32;

  private final Server jetty;
  private final ServerConnector connector;
  private final boolean tls;
  /** The TLS credentials and their reloading; null without TLS. */
  private final TlsFiles tlsFiles;
  private final ConnectHandler handler;
  private final OpenConnections connections;
  private final Duration drainTimeout;
  /** The meters bound to the registry, released on close; null without metrics. */
  private AutoCloseable meters;

  private KvServer(Builder b) {
    QueuedThreadPool threads = new QueuedThreadPool(b.maxThreads);
    threads.setName("kvasir-server");
    threads.setDaemon(true);
    if (Runtime.getRuntime().availableProcessors() <= 2) {
      // No spare thread to take over selecting while another consumes: on one or two
      // processors, waking it cost more than it saved (docs/kv-connect.md §13).
      threads.setReservedThreads(0);
    }
    jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    tlsFiles = b.tlsFiles();
    tls = tlsFiles != null;
    if (tls) {
      // Without Jetty's check that the Host header is a name of the certificate: one server has
      // one certificate, and health probes (Kubernetes', a load balancer's, kvasir ready) ask
      // the address they reach, which a public certificate does not name (operations.md §7).
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      secure.setSniHostCheck(false);
      http.addCustomizer(secure);
      SslContextFactory.Server ssl = tlsFiles.sslContextFactory();
      ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
      alpn.setDefaultProtocol("http/1.1");
      HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
      h2.setMaxConcurrentStreams(b.maxStreamsPerConnection);
      connector = new QuickAckConnector(jetty, new SslConnectionFactory(ssl,
          alpn.getProtocol()), alpn, h2, new HttpConnectionFactory(http));
    } else {
      HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(http);
      h2c.setMaxConcurrentStreams(b.maxStreamsPerConnection);
      connector = new QuickAckConnector(jetty, new HttpConnectionFactory(http), h2c);
    }
    // Room for bursts of new connections (clients reconnecting their watches after a restart);
    // the JDK's default backlog of 50 drops the rest, and a dropped SYN is retried after 1 s.
    connector.setAcceptQueueSize(1024);
    connector.setHost(b.host);
    connector.setPort(b.port);
    connector.setIdleTimeout(b.idleTimeout.toMillis());
    jetty.addConnector(connector);
    connections = new OpenConnections(b.maxConnections, b.idleTimeout, connector);
    jetty.addBean(connections);
    if (b.accessLog) {
      jetty.setRequestLog(new AccessLog(b.trustedProxies));
    }
    RequestMetrics metrics = b.metrics == null ? null : new RequestMetrics(b.metrics);
    handler = newConnectHandler(b, metrics == null ? applied -> { } : metrics::commit);
    Handler chain = handler;
    if (metrics != null) {
      chain = new MetricsHandler(chain, b.metrics, b.metricsToken);
      meters = ServerMetrics.bind(b.metrics, handler, connections, b.engine);
    }
    chain = new HealthHandler(chain, b.engine, b.readinessDeadline, handler::isDraining);
    if (metrics != null) {
      metrics.setHandler(chain); // outermost, so that it meters every request
      chain = metrics;
    }
    jetty.setHandler(chain);
    drainTimeout = b.drainTimeout;
    // close() drains requests itself; Jetty's own graceful stop waits on idle connections too.
    jetty.setStopTimeout(0);
    jetty.setStopAtShutdown(false);
  }

  private static ConnectHandler newConnectHandler(Builder b, Consumer<Boolean> onCommit) {
    Supplier<List<AccessToken>> tokens = !b.readOnly ? b.tokens
        : () -> b.tokens.get().stream().map(AccessToken::readOnlyCopy).toList();
    return new ConnectHandler(b.engine, tokens, b.readOnly, b.databaseId, b.protocolVersions,
        b.metadataLifetime, new WatchLimits(b.maxWatches,
            Math.max(1, b.maxStreamsPerConnection - STREAMS_KEPT_FOR_REQUESTS)), b.bodyDeadline,
        new BodyMemory(b.maxBodyMemory),
        new QueueGateway(b.engine, b.queueLease, b.maxQueuePolls), b.trustedProxies, onCommit);
  }

  /** A builder serving {@code engine}. */
  public static Builder builder(KvEngine engine) {
    return new Builder().engine(engine);
  }

  /**
   * A builder whose engine is given later with {@link Builder#engine}: the rest of the
   * configuration, TLS files included, is checked as it is set, so that a program can refuse a
   * mistake before it opens (and perhaps creates) its database.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The port it listens on (the real one when built with port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /** The URL to give {@code Deno.openKv}. */
  public String url() {
    String host = connector.getHost();
    if (host == null || host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    } else if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return (tls ? "https://" : "http://") + host + ":" + port();
  }

  /** How many queue messages remote listeners hold now. */
  public int queueLeases() {
    return handler.queueLeases();
  }

  /** How many watch streams are open now. */
  public int openWatches() {
    return handler.openWatches();
  }

  /** The bytes of request bodies and read answers held now (docs/operations.md §10). */
  public long bodyMemoryHeld() {
    return handler.bodyMemoryHeld();
  }

  /** How many client connections are open now. */
  public int openConnections() {
    return connections.open();
  }

  /** The pool's threads that Jetty keeps from requests, on this machine. */
  private int threadsJettyTakes() {
    return connector.getAcceptors() + connector.getSelectorManager().getSelectorCount()
        + ((QueuedThreadPool) jetty.getThreadPool()).getMaxReservedThreads();
  }

  public InetSocketAddress address() {
    return new InetSocketAddress(connector.getHost(), port());
  }

  /** Blocks until the server stopped. */
  public void awaitStop() throws InterruptedException {
    jetty.join();
  }

  /**
   * Stops accepting, ends watch streams, lets other requests in flight finish (up to the drain
   * timeout), and stops.
   */
  @Override
  public void close() {
    try {
      handler.drain(drainTimeout);
      jetty.stop();
      if (tlsFiles != null) {
        tlsFiles.close();
      }
      if (meters != null) {
        meters.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping the server", e);
    } catch (Exception e) {
      throw new IllegalStateException("stopping the server failed: " + e, e);
    }
  }

  /** How to build a {@link KvServer}. */
  public static final class Builder {
    private KvEngine engine;
    private Supplier<List<AccessToken>> tokens;
    private boolean readOnly;
    private String host = "127.0.0.1";
    private int port = 4512;
    private Path keystore;
    private String keystorePassword;
    private Path certificateChain;
    private Path privateKey;
    private Duration tlsReloadInterval = Duration.ofSeconds(5);
    private boolean accessLog;
    private ClientAddress trustedProxies = ClientAddress.trusting(List.of());
    private UUID databaseId = new UUID(0, 0);
    private Duration idleTimeout = Duration.ofSeconds(30);
    private Duration drainTimeout = Duration.ofSeconds(10);
    private int maxThreads = 256;
    private int maxWatches = 10_000;
    private int maxConnections = OpenConnections.defaultMax();
    private Duration queueLease = Duration.ofSeconds(30);
    private int maxQueuePolls = 64;
    private int maxStreamsPerConnection = 1024;
    private Duration bodyDeadline = Duration.ofSeconds(10);
    private long maxBodyMemory = defaultMaxBodyMemory();
    private Duration readinessDeadline = Duration.ofSeconds(2);
    private PrometheusMeterRegistry metrics;
    private String metricsToken;
    private Duration metadataLifetime = Duration.ofDays(1);
    private Set<Integer> protocolVersions = Set.copyOf(Metadata.SUPPORTED_VERSIONS);

    private Builder() {
    }

    /** The engine to serve; it stays the caller's to close. */
    public Builder engine(KvEngine engine) {
      this.engine = Objects.requireNonNull(engine, "engine");
      return this;
    }

    /**
     * The one bearer token every request must carry, which may read and write everything (at
     * least 12 characters, no white space). This or {@link #accessTokens} is required.
     */
    public Builder accessToken(String token) {
      List<AccessToken> one = List.of(AccessToken.full(token));
      this.tokens = () -> one;
      return this;
    }

    /**
     * The tokens clients may present, each read-write or read-only and perhaps limited to key
     * prefixes (docs/operations.md §4). Asked on every request, so a supplier that re-reads a
     * file rotates tokens without a restart; it must be cheap.
     */
    public Builder accessTokens(Supplier<List<AccessToken>> tokens) {
      this.tokens = Objects.requireNonNull(tokens, "tokens");
      return this;
    }

    /** The address to bind; default 127.0.0.1. */
    public Builder host(String host) {
      this.host = host;
      return this;
    }

    /** The port; default 4512, 0 for any free port. */
    public Builder port(int port) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port is 0 (any free port) to 65535: " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Serve HTTPS (h2 and HTTP/1.1) with this PKCS12 or JKS keystore, read again when it
     * changes.
     *
     * @throws IllegalArgumentException when the keystore cannot be read with this password
     */
    public Builder tls(Path keystore, String password) {
      keyStore(Objects.requireNonNull(keystore, "keystore"), password);
      this.keystore = keystore;
      this.keystorePassword = password;
      this.certificateChain = null;
      return this;
    }

    /**
     * Serve HTTPS (h2 and HTTP/1.1) with a certificate chain and its private key in PEM files
     * (PKCS#8, PKCS#1 or SEC 1; not encrypted), read again when they change, as a renewed
     * certificate is.
     *
     * @throws IllegalArgumentException naming the file that does not hold what it should
     */
    public Builder tlsPem(Path certificateChain, Path privateKey) {
      PemCredentials.load(Objects.requireNonNull(certificateChain, "certificateChain"),
          Objects.requireNonNull(privateKey, "privateKey"));
      this.certificateChain = certificateChain;
      this.privateKey = privateKey;
      this.keystore = null;
      return this;
    }

    /** How often the TLS files are looked at for a change; default 5 s. */
    public Builder tlsReloadInterval(Duration interval) {
      this.tlsReloadInterval = positive(interval, "tlsReloadInterval");
      return this;
    }

    /**
     * Serves for reading only: every token is taken as read-only, so writes and queue takes
     * get 403 (a replica, a past state). Off by default.
     */
    public Builder readOnly(boolean on) {
      this.readOnly = on;
      return this;
    }

    /**
     * Logs every request once answered to the SLF4J logger {@link #ACCESS_LOGGER} at INFO:
     * client, request line, status, bytes, milliseconds and user agent. Off by default.
     */
    public Builder accessLog(boolean on) {
      this.accessLog = on;
      return this;
    }

    /**
     * The reverse proxies or load balancers in front of this server, as IP addresses or
     * networks ({@code 10.0.0.0/8}): for requests from them, the access log names the client
     * that their {@code X-Forwarded-For} header names, and the metadata answer sends clients to
     * the data endpoints under the path their {@code X-Forwarded-Prefix} names. From anyone else
     * the headers are ignored, since a client can write them. None by default.
     *
     * @throws IllegalArgumentException for an entry that is neither an address nor a network
     */
    public Builder trustedProxies(List<String> proxies) {
      this.trustedProxies = ClientAddress.trusting(proxies);
      return this;
    }

    private TlsFiles tlsFiles() {
      if (certificateChain != null) {
        return new TlsFiles(List.of(certificateChain, privateKey),
            () -> PemCredentials.load(certificateChain, privateKey),
            PemCredentials.STORE_PASSWORD, tlsReloadInterval);
      }
      if (keystore != null) {
        return new TlsFiles(List.of(keystore), () -> keyStore(keystore, keystorePassword),
            keystorePassword, tlsReloadInterval);
      }
      return null;
    }

    private static KeyStore keyStore(Path file, String password) {
      try {
        return KeyStore.getInstance(file.toFile(),
            password == null ? null : password.toCharArray());
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalArgumentException("cannot read the keystore " + file + ": "
            + e.getMessage(), e);
      }
    }

    /** The database id announced in the metadata; default the nil UUID, as denokv. */
    public Builder databaseId(UUID id) {
      this.databaseId = Objects.requireNonNull(id);
      return this;
    }

    /** How long a connection may stay silent; default 30 s. Watch streams ping every 5 s. */
    public Builder idleTimeout(Duration timeout) {
      this.idleTimeout = positive(timeout, "idleTimeout");
      return this;
    }

    /**
     * How long the metadata a client receives stays valid ({@code expiresAt}); clients fetch it
     * again before then. Default one day.
     */
    public Builder metadataLifetime(Duration lifetime) {
      // Metadata that has expired when it is given would send a client straight back for more.
      this.metadataLifetime = positive(lifetime, "metadataLifetime");
      return this;
    }

    /**
     * How long a client may take to send a request body (read without holding a thread);
     * slower ones get 408. Default 10 s.
     */
    public Builder bodyDeadline(Duration deadline) {
      this.bodyDeadline = positive(deadline, "bodyDeadline");
      return this;
    }

    /**
     * The most memory held at once for request bodies and for the answers of snapshot reads,
     * from the time each is read or made until its request is answered or the answer is sent;
     * what does not fit gets 503, which clients retry (docs/operations.md §10). A read larger
     * than this still goes when no other read holds memory, a body when nothing else is held.
     * Default: a quarter of the heap ({@code -Xmx}).
     */
    public Builder maxBodyMemory(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxBodyMemory must be positive: " + bytes);
      }
      this.maxBodyMemory = bytes;
      return this;
    }

    /** A quarter of the most heap the JVM may use. */
    public static long defaultMaxBodyMemory() {
      return Runtime.getRuntime().maxMemory() / 4;
    }

    /**
     * How long {@code GET /readyz} waits for the database to answer a read before it answers
     * 503; default 2 s.
     */
    public Builder readinessDeadline(Duration deadline) {
      this.readinessDeadline = positive(deadline, "readinessDeadline");
      return this;
    }

    /**
     * Meters the server in {@code registry} and serves it at {@code GET /metrics} in the
     * format the scraper asks for, Prometheus's text by default (docs/operations.md §5):
     * requests by endpoint and status with latencies, commits, open watch streams, the engine's
     * own meters, and the JVM. Off by default.
     */
    public Builder metrics(PrometheusMeterRegistry registry) {
      this.metrics = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** The bearer token {@code GET /metrics} asks for; without one, metrics are open. */
    public Builder metricsToken(String token) {
      this.metricsToken = token;
      return this;
    }

    /** How long {@link #close()} waits for requests in flight; default 10 s, zero not at all. */
    public Builder drainTimeout(Duration timeout) {
      if (Objects.requireNonNull(timeout, "drainTimeout").isNegative()) {
        throw new IllegalArgumentException("drainTimeout must not be negative: " + timeout);
      }
      this.drainTimeout = timeout;
      return this;
    }

    /**
     * The most requests served at once (watch streams hold none while waiting); default 256.
     * Jetty takes some of them for accepting and selecting, more on a machine with more cores;
     * too few fail {@link #start()} saying how many it needs.
     */
    public Builder maxThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("maxThreads must be positive: " + threads);
      }
      this.maxThreads = threads;
      return this;
    }

    /**
     * The most client connections open at once. At the limit the server stops accepting until
     * one closes (new clients wait in the listen queue), and closes connections that stay
     * silent for 10 s. Default 10 000, or fewer when the process may open fewer files: its
     * limit on file descriptors less 256 (docs/operations.md §9).
     */
    public Builder maxConnections(int connections) {
      if (connections < 1) {
        throw new IllegalArgumentException("maxConnections must be positive: " + connections);
      }
      this.maxConnections = connections;
      return this;
    }

    /**
     * The most watch streams open at once on the server; past it a watch is refused with 429.
     * Default 10 000.
     */
    public Builder maxWatches(int watches) {
      if (watches < 1) {
        throw new IllegalArgumentException("maxWatches must be positive: " + watches);
      }
      this.maxWatches = watches;
      return this;
    }

    /**
     * How long a remote queue listener holds a message without renewing its lease (Kvasir's
     * client renews three times per lease); once it runs out, the delivery counts as failed
     * and the message is retried or dead-lettered (docs/kv-connect.md §10). Default 30 s.
     */
    public Builder queueLease(Duration lease) {
      if (lease.compareTo(MIN_QUEUE_LEASE) < 0) {
        throw new IllegalArgumentException("queueLease must be at least "
            + MIN_QUEUE_LEASE.toMillis() + " ms: " + lease);
      }
      this.queueLease = lease;
      return this;
    }

    /**
     * The most remote queue listeners' long polls waiting at once, each on a thread; more are
     * refused with 429. Default 64.
     */
    public Builder maxQueuePolls(int polls) {
      if (polls < 1) {
        throw new IllegalArgumentException("maxQueuePolls must be positive: " + polls);
      }
      this.maxQueuePolls = polls;
      return this;
    }

    /**
     * The most HTTP/2 streams one connection may have open at once (Deno sends all of a
     * process's requests over one connection). Watches may take all but 32 of them, so that
     * the connection's other requests never wait behind its watches. Default 1024.
     */
    public Builder maxStreamsPerConnection(int streams) {
      if (streams <= STREAMS_KEPT_FOR_REQUESTS) {
        throw new IllegalArgumentException("maxStreamsPerConnection must be above "
            + STREAMS_KEPT_FOR_REQUESTS + ": " + streams);
      }
      this.maxStreamsPerConnection = streams;
      return this;
    }

    /**
     * The protocol versions offered; default 1, 2 and 3. Fewer imitate an older server, which
     * is how clients are tested against versions 1 and 2.
     */
    Builder protocolVersions(Integer... versions) {
      this.protocolVersions = Set.of(versions);
      return this;
    }

    private static Duration positive(Duration d, String name) {
      if (Objects.requireNonNull(d, name).isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive: " + d);
      }
      return d;
    }

    /** Builds and starts the server. */
    public KvServer start() {
      if (engine == null) {
        throw new IllegalStateException("no engine to serve (engine)");
      }
      if (tokens == null) {
        throw new IllegalArgumentException("an access token is required (accessToken)");
      }
      KvServer server = new KvServer(this);
      try {
        server.jetty.start();
      } catch (Exception e) {
        // Jetty's words ("required=2 < max=2") count only the threads taken before it failed,
        // and name neither the setting nor the least it takes.
        boolean tooFewThreads = String.valueOf(e.getMessage())
            .startsWith("Insufficient configured threads");
        int taken = tooFewThreads ? server.threadsJettyTakes() : 0; // before close ends them
        server.close();
        if (tooFewThreads) {
          throw new IllegalArgumentException("maxThreads " + maxThreads + " is too few on this"
              + " machine: Jetty keeps " + taken + " for accepting, selecting and in reserve,"
              + " so requests need at least " + (taken + 1), e);
        }
        throw new IllegalStateException("cannot serve on " + host + ":" + port + ": "
            + e.getMessage(), e);
      }
      return server;
    }
  }
}
