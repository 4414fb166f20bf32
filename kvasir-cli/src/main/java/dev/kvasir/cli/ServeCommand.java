package dev.kvasir.cli;

import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.server.KvServer;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.Engines;
import dev.kvasir.spi.KvEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kvasir serve}: a KV Connect server on a SQLite file, or on a PostgreSQL database that
 * several servers behind a load balancer share.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve a database over KV Connect, for Deno.openKv(\"http://…\"), the"
        + " @deno/kv Node client and Kvasir's own client.",
        "Ctrl-C or SIGTERM lets requests in flight finish, then closes the database; SIGTERM"
            + " exits with status 0.",
        "Every option can also come from an environment variable: KVASIR_DB, KVASIR_PORT,"
            + " KVASIR_LOG_LEVEL,"
            + " KVASIR_HOST, KVASIR_ACCESS_TOKEN(_FILE), KVASIR_TOKENS_FILE,"
            + " KVASIR_DB_PASSWORD_FILE, KVASIR_METRICS_TOKEN_FILE,"
            + " KVASIR_MAX_WATCHES, KVASIR_TLS_KEYSTORE, KVASIR_TLS_PASSWORD.",
        "GET /healthz and GET /readyz answer health probes without a token; GET /metrics"
            + " serves Prometheus metrics."},
    footer = {"", "Examples:",
        "  kvasir serve",
        "  kvasir serve --path data/app.sqlite3 --port 8080 --host 0.0.0.0",
        "  kvasir serve --db postgresql://kvasir:secret@db.internal/app --host 0.0.0.0",
        "  KVASIR_ACCESS_TOKEN=my-long-secret kvasir serve",
        "  kvasir serve --db postgresql://kvasir@db.internal/app --db-password-file /run/secrets/db"
            + " --access-token-file /run/secrets/token"})
final class ServeCommand implements Callable<Integer> {
  private static final List<String> LOG_LEVELS = List.of("error", "warn", "info", "debug",
      "trace");

  @Spec CommandSpec spec;

  @Option(names = {"--db", "--path"}, paramLabel = "LOCATION",
      defaultValue = "${env:KVASIR_DB:-./kvasir.sqlite3}",
      description = "The SQLite file (Deno's format; created if missing), a"
          + " postgresql://user:password@host:port/database URL, or any location an engine on"
          + " the class path takes. Default: ${DEFAULT-VALUE}")
  String location;

  @Option(names = "--port", defaultValue = "${env:KVASIR_PORT:-4512}",
      description = "Default: ${DEFAULT-VALUE}")
  int port;

  @Option(names = "--host", defaultValue = "${env:KVASIR_HOST:-127.0.0.1}",
      description = "The address to listen on. Default: ${DEFAULT-VALUE}")
  String host;

  @Option(names = "--access-token", defaultValue = "${env:KVASIR_ACCESS_TOKEN}",
      description = "The token clients send (at least 12 characters). Default: the environment"
          + " variable KVASIR_ACCESS_TOKEN, else a new random token, printed once.")
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

  @Option(names = "--log-level", paramLabel = "LEVEL",
      description = "What the server and its libraries log to standard error: error, warn,"
          + " info, debug or trace. Default: the environment variable KVASIR_LOG_LEVEL, else"
          + " warn.")
  String logLevel;

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

  @Option(names = "--max-watches", defaultValue = "${env:KVASIR_MAX_WATCHES:-10000}",
      description = "The most watch streams open at once; more are refused (HTTP 429)."
          + " Default: ${DEFAULT-VALUE}")
  int maxWatches;

  @Option(names = "--tls-keystore", defaultValue = "${env:KVASIR_TLS_KEYSTORE}",
      description = "Serve HTTPS (h2) with this PKCS12 keystore.")
  Path keystore;

  @Option(names = "--tls-password", defaultValue = "${env:KVASIR_TLS_PASSWORD}",
      description = "The keystore password. Default: the environment variable"
          + " KVASIR_TLS_PASSWORD.")
  String keystorePassword;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (logLevel != null) {
      if (!LOG_LEVELS.contains(logLevel)) {
        err.println("error: --log-level is one of " + String.join(", ", LOG_LEVELS));
        return 2;
      }
      System.setProperty(Kvasir.LOG_LEVEL, logLevel); // before the server makes its loggers
    }
    String fromFile;
    String dbPassword;
    TokensFile scoped;
    String metricsToken;
    try {
      int ways = (accessToken != null && !accessToken.isEmpty() ? 1 : 0)
          + (accessTokenFile != null ? 1 : 0) + (tokensFile != null ? 1 : 0);
      if (ways > 1) {
        err.println("error: give the access tokens one way: --access-token,"
            + " --access-token-file or --tokens-file (or their environment variables)");
        return 2;
      }
      scoped = tokensFile == null ? null : new TokensFile(tokensFile, err);
      fromFile = accessTokenFile == null ? null : firstLine(accessTokenFile, "access token");
      dbPassword = dbPasswordFile == null ? null : firstLine(dbPasswordFile, "database password");
      metricsToken = metricsTokenFile == null ? null : firstLine(metricsTokenFile,
          "metrics token");
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    String given = fromFile != null ? fromFile : accessToken;
    boolean generated = scoped == null && (given == null || given.isEmpty());
    String token = generated ? newToken() : given;
    if (scoped == null
        && (token.length() < 12 || token.chars().anyMatch(Character::isWhitespace))) {
      err.println("error: the access token must have at least 12 characters and no white space;"
          + " pass another --access-token or leave it out to get a random one");
      return 2;
    }
    KvEngine engine;
    String served;
    try {
      EngineProvider provider = Engines.provider(location);
      KvOptions options = dbPassword == null ? KvOptions.defaults()
          : KvOptions.defaults().with("password", dbPassword);
      engine = provider.open(location, options);
      served = provider.describe(location);
    } catch (IllegalArgumentException | KvException e) {
      err.println("error: " + e.getMessage());
      return Kvasir.DATABASE_ERROR;
    }
    KvServer server;
    try {
      KvServer.Builder b = KvServer.builder(engine).host(host).port(port).maxWatches(maxWatches)
          .metrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
          .metricsToken(metricsToken);
      if (scoped != null) {
        b.accessTokens(scoped);
      } else {
        b.accessToken(token);
      }
      if (keystore != null) {
        b.tls(keystore, keystorePassword);
      }
      server = b.start();
    } catch (RuntimeException e) {
      engine.close();
      err.println("error: " + e.getMessage() + " (is the port in use? try --port)");
      return Kvasir.DATABASE_ERROR;
    }
    // Ctrl-C (SIGINT) and SIGHUP stop the JVM, which runs this hook; SIGTERM, what service
    // managers send, is handled below so that the server drains and exits with status 0.
    Thread hook = new Thread(() -> {
      server.close();
      engine.close();
    }, "kvasir-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    CountDownLatch terminated = new CountDownLatch(1);
    Termination.onSigterm(terminated::countDown);
    boolean everywhere = host.equals("0.0.0.0") || host.equals("::");
    if (keystore == null && !isLoopback(host)) {
      err.println("warning: serving on " + (everywhere ? "every network interface" : host)
          + " without TLS: the access token and all data cross the network unencrypted;"
          + " use --tls-keystore, or --host 127.0.0.1 behind a TLS proxy");
      err.flush();
    }
    out.println("Kvasir serves " + served + " at " + server.url()
        + (everywhere ? " (listening on " + host + " port " + server.port()
            + ": every interface)" : ""));
    if (generated) {
      out.println("Access token (generated, shown only now): " + token);
    }
    out.println();
    out.println("  DENO_KV_ACCESS_TOKEN=<token> deno run -A --unstable-kv app.ts");
    out.println("  const kv = await Deno.openKv(\"" + server.url() + "\");");
    out.println();
    out.println("Ctrl-C stops.");
    out.flush();
    terminated.await(); // without a SIGTERM handler, forever: the shutdown hook stops everything
    Runtime.getRuntime().removeShutdownHook(hook);
    server.close();
    engine.close();
    err.println("stopped");
    return 0;
  }

  /** The first line of a secret file, without its line break. */
  private static String firstLine(Path file, String what) {
    try {
      String text = Files.readString(file);
      int end = text.indexOf('\n');
      String line = end < 0 ? text : text.substring(0, end);
      return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the " + what + " from " + file + ": "
          + e.getMessage());
    }
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false; // Jetty fails to bind it anyway
    }
  }

  private static String newToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
