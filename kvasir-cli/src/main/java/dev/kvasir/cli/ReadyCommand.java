package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.base.KvException;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.TlsTrust;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kvasir ready}: whether a {@code kvasir serve} is ready, by its {@code GET /readyz}
 * (docs/operations.md §1), as {@code pg_isready} is for PostgreSQL: for a container's health
 * check and a service manager's start-up. Without a URL it asks the server that {@code serve}
 * would start in the same environment and with the same {@code --config} file.
 */
@Command(name = "ready", mixinStandardHelpOptions = true,
    description = {"Ask a server whether it is ready (GET /readyz): exit 0 if it is, 1 if it"
        + " answered that it is not, 3 if it did not answer.",
        "Without a URL, ask the server 'kvasir serve' starts with this environment (KVASIR_PORT,"
            + " KVASIR_HOST, KVASIR_TLS_CERT, …) and --config file: its port, on 127.0.0.1 when"
            + " it listens on every interface, over https when it serves TLS, trusting the"
            + " certificate it is configured with."},
    footer = {"", "Examples:",
        "  kvasir ready",
        "  kvasir ready --config /etc/kvasir/kvasir.properties --wait 60s",
        "  kvasir ready --wait 60s http://127.0.0.1:8080",
        "  kvasir ready --ca-file ca.pem https://kv.internal:4512"})
final class ReadyCommand implements Callable<Integer> {
  /** How long one question may take, connecting included. */
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);

  @Spec CommandSpec spec;

  @Parameters(arity = "0..1", paramLabel = "URL",
      description = "The server. Default: the one 'kvasir serve' starts with this environment"
          + " and --config file (http://127.0.0.1:4512 when nothing is set).")
  String url;

  @Option(names = "--config", paramLabel = "FILE", defaultValue = "${env:KVASIR_CONFIG}",
      description = "Without a URL: the server's configuration file, as 'kvasir serve"
          + " --config' reads it.")
  Path config;

  @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "0",
      description = "Ask again every half second until ready or this long has passed"
          + " (e.g. 60s). Default: ask once.")
  Duration wait;

  @Option(names = "--ca-file", paramLabel = "FILE",
      description = "For an https:// URL: also trust the CA certificates of this PEM file."
          + " Default: the environment variable KVASIR_CA_FILE.")
  Path caFile;

  @Option(names = "--insecure",
      description = "Accept any TLS certificate.")
  boolean insecure;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing; the exit status tells.")
  boolean quiet;

  @Option(names = "--json", description = "Print {\"url\",\"ready\",\"status\",\"answer\"},"
      + " or {\"url\",\"ready\":false,\"status\":null,\"error\"} when nothing answered.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    URI server;
    HttpClient http;
    try {
      ServedAddress served = url == null
          ? ServedAddress.of(config, out, spec.commandLine().getErr()) : null;
      server = served != null ? served.url()
          : RemoteConfig.serverUrl(url.replaceAll("/+$", ""));
      http = HttpClient.newBuilder().connectTimeout(ASK_TIMEOUT)
          .sslContext(tls(server, served)).build();
    } catch (IllegalArgumentException | KvException | ParameterException e) {
      // A setting of the server's that is wrong: serve would refuse to start too.
      spec.commandLine().getErr().println("error: " + e.getMessage());
      return Kvasir.USAGE;
    }
    URI readyz = URI.create(server + "/readyz");
    long deadline = System.nanoTime() + wait.toNanos();
    ObjectNode answer = Render.JSON.createObjectNode();
    int status;
    while (true) {
      answer.removeAll();
      answer.put("url", server.toString());
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(readyz)
            .timeout(ASK_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        status = r.statusCode() == 200 ? 0 : Kvasir.FAILED;
        answer.put("ready", status == 0);
        answer.put("status", r.statusCode());
        answer.put("answer", r.body().strip());
      } catch (IOException e) {
        status = Kvasir.DATABASE_ERROR;
        answer.put("ready", false);
        answer.putNull("status");
        answer.put("error", why(e, server));
      }
      if (status == 0 || System.nanoTime() >= deadline) {
        break;
      }
      Thread.sleep(500);
    }
    if (!quiet) {
      out.println(json ? Render.text(answer) : server + ": " + (answer.has("error")
          ? "no answer (" + answer.get("error").asText() + ")"
          : answer.get("status").asInt() + " " + answer.get("answer").asText()));
    }
    return status;
  }

  /** Whom to trust over https: the configured certificate, anyone, or the CAs and --ca-file. */
  private SSLContext tls(URI server, ServedAddress served) throws Exception {
    boolean https = server.getScheme() != null && server.getScheme().equals("https");
    Optional<Path> ca = DatabaseOption.caFile(caFile, https, () -> "URL; got " + server);
    if (insecure) {
      return ProbeTrust.anyCertificate();
    }
    if (served != null && https) {
      return ProbeTrust.exactly(served.certificates());
    }
    return TlsTrust.context(Optional.empty(), "", "", ca, "--ca-file");
  }

  /** What stopped the question, in words; the JDK's exceptions often carry no message. */
  private static String why(IOException e, URI server) {
    if (e instanceof HttpConnectTimeoutException) {
      return "no connection within " + ASK_TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof HttpTimeoutException) {
      return "no answer within " + ASK_TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof ConnectException) {
      return "connection refused: nothing listens at " + server.getHost() + " port "
          + server.getPort();
    }
    if (e instanceof SSLHandshakeException) {
      return "TLS handshake failed: " + e.getMessage() + "; for a certificate your own CA"
          + " signed pass --ca-file, for one that names another host --insecure";
    }
    if (e instanceof SSLException) {
      return "TLS failed: " + e.getMessage() + "; does the server speak https there?";
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
