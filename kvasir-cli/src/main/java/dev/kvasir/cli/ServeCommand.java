package dev.kvasir.cli;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.server.KvServer;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kvasir serve}: a KV Connect server on a SQLite file, or on a PostgreSQL database that
 * several servers behind a load balancer share (docs/operations.md).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve a database over KV Connect, for Deno.openKv(\"http://…\"), the"
        + " @deno/kv Node client and Kvasir's own client.",
        "Ctrl-C or SIGTERM lets requests in flight finish, then closes the database; SIGTERM"
            + " exits with status 0.",
        "Every option can also come from an environment variable named after it (KVASIR_DB,"
            + " KVASIR_PORT, KVASIR_TLS_CERT, …) and from a --config file; the command line"
            + " wins, then the environment, then the file.",
        "GET /healthz and GET /readyz answer health probes without a token; GET /metrics"
            + " serves Prometheus metrics."},
    footer = {"", "Examples:",
        "  kvasir serve",
        "  kvasir serve --path data/app.sqlite3 --port 8080 --host 0.0.0.0 \\",
        "      --tls-cert fullchain.pem --tls-key privkey.pem",
        "  kvasir serve --db postgresql://kvasir:secret@db.internal/app --host 0.0.0.0",
        "  KVASIR_ACCESS_TOKEN=my-long-secret kvasir serve",
        "  kvasir serve --config /etc/kvasir/kvasir.properties",
        "  kvasir serve --db postgresql://kvasir@db.internal/app \\",
        "      --db-password-file /run/secrets/db --access-token-file /run/secrets/token \\",
        "      --log-format json --access-log"})
final class ServeCommand implements Callable<Integer> {
  /** The start's warnings, in the chosen log format like every other line (operations.md §6). */
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  private static final String UNRESOLVED_HOST = ": --host is neither an address nor a name this"
      + " machine resolves; give one of its addresses, such as 127.0.0.1, or 0.0.0.0 for all of"
      + " them";

  @Spec CommandSpec spec;

  @Option(names = {"--db", "--path"}, paramLabel = "LOCATION",
      defaultValue = "${env:KVASIR_DB:-./kvasir.sqlite3}",
      description = "The SQLite file (Deno's format; created if missing), a"
          + " postgresql://user:password@host:port/database URL, or any location an engine on"
          + " the class path takes. Default: ${DEFAULT-VALUE}")
  String location;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "${env:KVASIR_PORT:-4512}",
      description = "The TCP port to listen on; 0 for any free one, which the server prints"
          + " when it is ready. Default: ${DEFAULT-VALUE}")
  int port;

  @Option(names = "--host", paramLabel = "ADDRESS",
      defaultValue = "${env:KVASIR_HOST:-127.0.0.1}",
      description = "The address to listen on; 0.0.0.0 for all of this machine's."
          + " Default: ${DEFAULT-VALUE}")
  String host;

  @Option(names = "--config", paramLabel = "FILE", defaultValue = "${env:KVASIR_CONFIG}",
      description = "Read options from this properties file: one 'name = value' per line, the"
          + " names being the options' without their dashes (db, port, tls-cert, …).")
  Path config;

  @Option(names = "--access-token", paramLabel = "TOKEN",
      defaultValue = "${env:KVASIR_ACCESS_TOKEN}",
      description = "The token clients send (at least 12 characters). Default: a new random"
          + " token, shown once on the terminal, or written to ./" + ServeTokens.GENERATED_FILE
          + " without one.")
  String accessToken;

  @Option(names = "--access-token-file", paramLabel = "FILE",
      defaultValue = "${env:KVASIR_ACCESS_TOKEN_FILE}",
      description = "Read the token from the first line of this file, so that it shows neither"
          + " in ps nor in the shell's history.")
  Path accessTokenFile;

  @Option(names = "--tokens-file", paramLabel = "FILE",
      defaultValue = "${env:KVASIR_TOKENS_FILE}",
      description = "Several tokens, one per line: TOKEN rw|ro [PREFIX ...] (read-write or"
          + " read-only, limited to keys under the prefixes if any). Read again when it"
          + " changes, so tokens rotate without a restart.")
  Path tokensFile;

  @Option(names = "--log-level", paramLabel = "LEVEL", defaultValue = "${env:KVASIR_LOG_LEVEL}",
      description = "What the server and its libraries log to standard error: error, warn,"
          + " info, debug or trace. Default: warn.")
  String logLevel;

  @Option(names = "--log-format", paramLabel = "FORMAT",
      defaultValue = "${env:KVASIR_LOG_FORMAT}",
      description = "text, or json for one JSON object per line (for log collectors). Default:"
          + " text.")
  String logFormat;

  @Option(names = "--access-log", paramLabel = "true|false",
      defaultValue = "${env:KVASIR_ACCESS_LOG:-false}", fallbackValue = "true", arity = "0..1",
      description = "Log every request (client, request line, status, bytes, time, user agent;"
          + " never a token) at INFO, whatever --log-level says.")
  boolean accessLog;

  @Option(names = "--trusted-proxy", paramLabel = "ADDRESS[/BITS]", split = ",",
      defaultValue = "${env:KVASIR_TRUSTED_PROXY}",
      description = "A reverse proxy or load balancer in front of the server (an IP address or"
          + " a network such as 10.0.0.0/8; repeatable): for its requests, the access log"
          + " names the client its X-Forwarded-For header names, and clients are sent to the"
          + " data endpoints under the path its X-Forwarded-Prefix names (a proxy that serves"
          + " the server at https://host/kv). From others these headers are ignored.")
  List<String> trustedProxies;

  @Option(names = "--metrics-token-file", paramLabel = "FILE",
      defaultValue = "${env:KVASIR_METRICS_TOKEN_FILE}",
      description = "Ask scrapers of GET /metrics for the token on the first line of this file;"
          + " without it, the metrics are open to anyone who reaches the port.")
  Path metricsTokenFile;

  @Option(names = "--db-password-file", paramLabel = "FILE",
      defaultValue = "${env:KVASIR_DB_PASSWORD_FILE}",
      description = "Read the database password from the first line of this file, for a --db"
          + " URL that leaves it out.")
  Path dbPasswordFile;

  @Option(names = "--db-wait", paramLabel = "DURATION",
      defaultValue = "${env:KVASIR_DB_WAIT:-60s}",
      description = "How long to keep trying a database that is not reachable yet (a"
          + " PostgreSQL server still starting, a name not yet in DNS) before giving up; 0 to"
          + " give up at once. Default: ${DEFAULT-VALUE}")
  Duration dbWait;

  @Option(names = "--db-option", paramLabel = "NAME=VALUE", split = ",",
      defaultValue = "${env:KVASIR_DB_OPTION}",
      description = "An option of the database's engine, e.g. sqlite.busyTimeoutMs=30000 or"
          + " sqlite.synchronous=NORMAL; repeat it or separate several with commas. An option"
          + " the engine does not read is refused, naming those it does.")
  Map<String, String> engineOptions;

  @Option(names = "--read-only", defaultValue = "${env:KVASIR_READ_ONLY:-false}",
      description = "Serve for reading only: writes and queue takes get 403. On a dag:"
          + " directory, the newest state is served as a replication or backup adds to it,"
          + " watches included. Default: ${DEFAULT-VALUE}")
  boolean readOnly;

  @Option(names = "--max-watches", paramLabel = "N",
      defaultValue = "${env:KVASIR_MAX_WATCHES:-10000}",
      description = "The most watch streams open at once; more are refused (HTTP 429)."
          + " Default: ${DEFAULT-VALUE}")
  int maxWatches;

  @Option(names = "--max-connections", paramLabel = "N",
      defaultValue = "${env:KVASIR_MAX_CONNECTIONS}",
      description = "The most client connections open at once; at the limit new clients wait"
          + " until one closes, and connections silent for 10 s are closed. Default: 10000, or"
          + " the process's limit on open files less 256 when that is lower.")
  Integer maxConnections;

  @Option(names = "--queue-lease", paramLabel = "DURATION",
      defaultValue = "${env:KVASIR_QUEUE_LEASE:-30s}",
      description = "How long a remote queue listener (Kvasir's client) holds a message without"
          + " renewing; then its delivery counts as failed and the message is retried."
          + " Default: ${DEFAULT-VALUE}")
  Duration queueLease;

  @Option(names = "--max-queue-polls", paramLabel = "N",
      defaultValue = "${env:KVASIR_MAX_QUEUE_POLLS:-64}",
      description = "The most remote queue listeners waiting for a message at once (each"
          + " holds a thread); more are refused (HTTP 429). Default: ${DEFAULT-VALUE}")
  int maxQueuePolls;

  @Option(names = "--max-body-memory", paramLabel = "SIZE",
      defaultValue = "${env:KVASIR_MAX_BODY_MEMORY}", converter = ByteSizes.class,
      description = "The most memory held at once for request bodies and read answers (512k,"
          + " 64m, 1g); requests that do not fit get 503, which clients retry. Default: a"
          + " quarter of the heap (-Xmx).")
  Long maxBodyMemory;

  @Option(names = "--tls-cert", paramLabel = "FILE", defaultValue = "${env:KVASIR_TLS_CERT}",
      description = "Serve HTTPS (h2) with the certificate chain in this PEM file (e.g."
          + " certbot's fullchain.pem), with --tls-key. Read again when it changes.")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE", defaultValue = "${env:KVASIR_TLS_KEY}",
      description = "The unencrypted private key of --tls-cert, in PEM (PKCS#8, PKCS#1 or"
          + " SEC 1).")
  Path tlsKey;

  @Option(names = "--tls-keystore", paramLabel = "FILE",
      defaultValue = "${env:KVASIR_TLS_KEYSTORE}",
      description = "Serve HTTPS (h2) with this PKCS12 keystore instead. Read again when it"
          + " changes.")
  Path keystore;

  @Option(names = "--tls-password", paramLabel = "PASSWORD",
      defaultValue = "${env:KVASIR_TLS_PASSWORD}",
      description = "The keystore's password; KVASIR_TLS_PASSWORD keeps it out of ps and the"
          + " shell's history.")
  String keystorePassword;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ServeTokens tokens;
    KvServer.Builder server;
    String dbSource;
    try {
      Set<OptionSpec> fromFile = config == null ? Set.of() : ConfigFile.apply(spec, config);
      // Errors quoting the location say where it came from, when the user did not type it here.
      dbSource = fromFile.contains(spec.findOption("--db")) ? " (--db from " + config + ")"
          : DatabaseOption.fromEnvironment(spec, location);
      configureLogging();
      UnknownVariables.warnings(spec, System.getenv()).forEach(LOG::warn);
      checkRanges();
      checkTls();
      tokens = ServeTokens.resolve(accessToken, accessTokenFile, tokensFile);
      // Configured before the database is opened, so that TLS files that do not load and
      // trusted proxies that do not parse are refused before a missing database is created.
      server = serverBuilder(tokens);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return Kvasir.USAGE;
    }
    String unbindable = cannotBind();
    if (unbindable != null) {
      err.println("error: cannot serve on " + host + ":" + port + unbindable);
      return Kvasir.DATABASE_ERROR; // as when binding fails below
    }
    // SIGTERM, what service managers send, stops the server (below) or the wait for its
    // database with status 0; Ctrl-C (SIGINT) and SIGHUP stop the JVM, whose hook closes it.
    CountDownLatch terminated = new CountDownLatch(1);
    Termination.onSigterm(terminated::countDown);
    KvEngine engine;
    String served;
    try {
      EngineProvider provider = DatabaseOption.provider(location, dbSource);
      KvOptions options = EngineOptions.of(engineOptions);
      if (dbPasswordFile != null) {
        try {
          options = options.with("password",
              Secrets.databasePassword(dbPasswordFile, provider, location));
        } catch (IllegalArgumentException e) {
          err.println("error: " + e.getMessage());
          return Kvasir.USAGE;
        }
      }
      KvOptions opening = readOnly ? provider.readOnly(options) : options;
      try {
        engine = DatabaseWait.open(() -> provider.open(location, opening), dbWait, terminated);
      } catch (KvException e) {
        throw DatabaseOption.withSource(e, dbSource);
      }
      if (engine == null) {
        err.println("stopped");
        return 0;
      }
      served = provider.describe(location);
    } catch (IllegalArgumentException | KvException e) {
      err.println("error: " + e.getMessage());
      // A location or engine option the engine refuses, or a value out of its range: the
      // caller's to fix.
      return e instanceof KvArgumentException ? Kvasir.USAGE : Kvasir.DATABASE_ERROR;
    }
    KvServer running;
    String tokenNote;
    try {
      tokenNote = tokens.announce();
      running = server.engine(engine).start();
    } catch (IOException | RuntimeException e) {
      engine.close();
      err.println("error: " + e.getMessage() + bindHint(e));
      return Kvasir.DATABASE_ERROR;
    }
    Thread hook = new Thread(() -> {
      running.close();
      engine.close();
      err.println("stopped"); // as after SIGTERM, so that the log says why it ended
      err.flush();
    }, "kvasir-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    printBanner(out, served, running, tokenNote);
    terminated.await(); // without a SIGTERM handler, forever: the shutdown hook stops everything
    Runtime.getRuntime().removeShutdownHook(hook);
    running.close();
    engine.close();
    err.println("stopped");
    return 0;
  }

  /**
   * The server as configured, without its engine yet.
   *
   * @throws IllegalArgumentException for TLS files that do not load, trusted proxies that do
   *     not parse or a metrics token file that cannot be read
   */
  private KvServer.Builder serverBuilder(ServeTokens tokens) {
    String metricsToken = metricsTokenFile == null ? null
        : Secrets.firstLine(metricsTokenFile, "metrics token");
    KvServer.Builder b = KvServer.builder().host(host).port(port).maxWatches(maxWatches)
        .queueLease(queueLease).maxQueuePolls(maxQueuePolls).readOnly(readOnly)
        .metrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
        .metricsToken(metricsToken).accessLog(accessLog)
        .trustedProxies(trustedProxies == null ? List.of() : trustedProxies);
    tokens.configure(b);
    if (maxConnections != null) {
      b.maxConnections(maxConnections);
    }
    if (maxBodyMemory != null) {
      b.maxBodyMemory(maxBodyMemory);
    }
    if (tlsCert != null) {
      b.tlsPem(tlsCert, tlsKey);
    } else if (keystore != null) {
      b.tls(keystore, keystorePassword);
    }
    return b;
  }

  /**
   * Why the server could not bind its address, tried with a socket closed at once; null if it
   * could. Tried before the database is opened: a port another process holds was found only
   * when binding, after a missing database had been created for a start that failed. Port 0,
   * any free port, always binds.
   */
  private String cannotBind() {
    if (port == 0) {
      return null;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true); // as Jetty's connector: a port in TIME_WAIT is free
      probe.bind(new InetSocketAddress(host, port));
      return null;
    } catch (BindException e) {
      return bindHint(e);
    } catch (IOException e) {
      return null; // binding for real says what is wrong
    }
  }

  /** Why binding failed, from the socket's own error, and what to change; else nothing. */
  static String bindHint(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException) {
        return UNRESOLVED_HOST; // resolved at start, but no longer
      }
      if (t instanceof BindException b) {
        String why = String.valueOf(b.getMessage());
        if (why.contains("in use")) {
          return ": another process listens on that port; choose another --port";
        }
        if (why.contains("Permission denied")) {
          return ": " + why + "; a port below 1024 needs privileges this process lacks,"
              + " choose a --port of 1024 or above";
        }
        return ": " + why + "; --host must be an address of this machine, such as"
            + " 127.0.0.1, or 0.0.0.0 for all of them";
      }
    }
    return "";
  }

  /** The level and format the options ask for, and the access log's level. */
  private void configureLogging() {
    String level = logLevel == null || logLevel.isEmpty() ? "warn" : logLevel;
    String format = logFormat == null || logFormat.isEmpty() ? "text" : logFormat;
    if (!Logging.LEVELS.contains(level)) {
      throw new IllegalArgumentException("--log-level is one of "
          + String.join(", ", Logging.LEVELS));
    }
    if (!Logging.FORMATS.contains(format)) {
      throw new IllegalArgumentException("--log-format is one of "
          + String.join(", ", Logging.FORMATS));
    }
    Logging.configure(level, format);
    if (accessLog && !Logging.operatorConfigured()) {
      Logging.setLevel(KvServer.ACCESS_LOGGER, "info");
    }
  }

  /** The numbers, named by their options (the builder would name its own methods). */
  private void checkRanges() {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("--port is 0 (any free port) to 65535: " + port);
    }
    positive("--max-watches", maxWatches);
    positive("--max-queue-polls", maxQueuePolls);
    if (maxConnections != null) {
      positive("--max-connections", maxConnections);
    }
    if (maxBodyMemory != null && maxBodyMemory < 1) {
      throw new IllegalArgumentException("--max-body-memory must be positive: " + maxBodyMemory);
    }
    if (queueLease.compareTo(KvServer.MIN_QUEUE_LEASE) < 0) {
      throw new IllegalArgumentException("--queue-lease is at least "
          + KvServer.MIN_QUEUE_LEASE.toMillis() + " ms: " + queueLease.toMillis() + " ms");
    }
    try {
      InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      // Found only when binding, after the database was opened, and a missing one created.
      throw new IllegalArgumentException("cannot serve on " + host + UNRESOLVED_HOST);
    }
  }

  private static void positive(String option, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be positive: " + value);
    }
  }

  private void checkTls() {
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsCert != null && keystore != null) {
      throw new IllegalArgumentException("give TLS one way: --tls-cert and --tls-key, or"
          + " --tls-keystore");
    }
    // A mistyped path is refused with the option's name; what the files hold is checked when
    // the server is configured, also before the database is opened.
    readable("--tls-cert", tlsCert);
    readable("--tls-key", tlsKey);
    readable("--tls-keystore", keystore);
  }

  private static void readable(String option, Path file) {
    if (file != null && (!Files.isRegularFile(file) || !Files.isReadable(file))) {
      throw new IllegalArgumentException(option + " names " + file + ", which is "
          + (Files.exists(file) ? "not a file this process can read" : "not there"));
    }
  }

  private void printBanner(PrintWriter out, String served, KvServer server,
      String tokenNote) {
    boolean everywhere = host.equals("0.0.0.0") || host.equals("::");
    if (tlsCert == null && keystore == null && !isLoopback(host)) {
      LOG.warn("Serving on " + (everywhere ? "every network interface" : host)
          + " without TLS: the access token and all data cross the network unencrypted;"
          + " use --tls-cert and --tls-key, or --host 127.0.0.1 behind a TLS proxy");
    }
    out.println("Kvasir serves " + served + " at " + server.url()
        + (everywhere ? " (listening on " + host + " port " + server.port()
            + ": every interface)" : ""));
    if (tokenNote != null) {
      out.println(tokenNote);
    }
    out.println();
    out.println("  DENO_KV_ACCESS_TOKEN=<token> deno run -A --unstable-kv app.ts");
    out.println("  const kv = await Deno.openKv(\"" + server.url() + "\");");
    out.println();
    out.println("Ctrl-C stops.");
    out.flush();
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false; // resolved at start (checkRanges), so only if the name went since
    }
  }
}
