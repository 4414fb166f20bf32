package dev.kvasir.cli;

import dev.kvasir.KvException;
import dev.kvasir.KvOptions;
import dev.kvasir.server.KvServer;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.Engines;
import dev.kvasir.spi.KvEngine;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
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
        "Ctrl-C or SIGTERM lets requests in flight finish, then closes the database."},
    footer = {"", "Examples:",
        "  kvasir serve",
        "  kvasir serve --path data/app.sqlite3 --port 8080 --host 0.0.0.0",
        "  kvasir serve --db postgresql://kvasir:secret@db.internal/app --host 0.0.0.0",
        "  KVASIR_ACCESS_TOKEN=my-long-secret kvasir serve"})
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"--db", "--path"}, paramLabel = "LOCATION",
      defaultValue = "./kvasir.sqlite3",
      description = "The SQLite file (Deno's format; created if missing), a"
          + " postgresql://user:password@host:port/database URL, or any location an engine on"
          + " the class path takes. Default: ${DEFAULT-VALUE}")
  String location;

  @Option(names = "--port", defaultValue = "4512", description = "Default: ${DEFAULT-VALUE}")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1",
      description = "The address to listen on. Default: ${DEFAULT-VALUE}")
  String host;

  @Option(names = "--access-token", defaultValue = "${env:KVASIR_ACCESS_TOKEN}",
      description = "The token clients send (at least 12 characters). Default: the environment"
          + " variable KVASIR_ACCESS_TOKEN, else a new random token, printed once.")
  String accessToken;

  @Option(names = "--max-watches", defaultValue = "10000",
      description = "The most watch streams open at once; more are refused (HTTP 429)."
          + " Default: ${DEFAULT-VALUE}")
  int maxWatches;

  @Option(names = "--tls-keystore", description = "Serve HTTPS (h2) with this PKCS12 keystore.")
  Path keystore;

  @Option(names = "--tls-password", defaultValue = "${env:KVASIR_TLS_PASSWORD}",
      description = "The keystore password. Default: the environment variable"
          + " KVASIR_TLS_PASSWORD.")
  String keystorePassword;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean generated = accessToken == null || accessToken.isEmpty();
    String token = generated ? newToken() : accessToken;
    if (token.length() < 12 || token.chars().anyMatch(Character::isWhitespace)) {
      err.println("error: the access token must have at least 12 characters and no white space;"
          + " pass another --access-token or leave it out to get a random one");
      return 2;
    }
    KvEngine engine;
    String served;
    try {
      EngineProvider provider = Engines.provider(location);
      engine = provider.open(location, KvOptions.defaults());
      served = provider.describe(location);
    } catch (IllegalArgumentException | KvException e) {
      err.println("error: " + e.getMessage());
      return Kvasir.DATABASE_ERROR;
    }
    KvServer server;
    try {
      KvServer.Builder b = KvServer.builder(engine).accessToken(token).host(host).port(port)
          .maxWatches(maxWatches);
      if (keystore != null) {
        b.tls(keystore, keystorePassword);
      }
      server = b.start();
    } catch (RuntimeException e) {
      engine.close();
      err.println("error: " + e.getMessage() + " (is the port in use? try --port)");
      return Kvasir.DATABASE_ERROR;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      engine.close();
      stopped.countDown();
    }, "kvasir-shutdown"));
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
    stopped.await();
    return 0;
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
