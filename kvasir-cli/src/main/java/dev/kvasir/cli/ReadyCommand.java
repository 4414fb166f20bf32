package dev.kvasir.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kvasir ready}: whether a {@code kvasir serve} is ready, by its {@code GET /readyz}
 * (docs/operations.md §1), as {@code pg_isready} is for PostgreSQL: for a container's health
 * check and a service manager's start-up.
 */
@Command(name = "ready", mixinStandardHelpOptions = true,
    description = {"Ask a server whether it is ready (GET /readyz): exit 0 if it is, 1 if it"
        + " answered that it is not, 3 if it did not answer."},
    footer = {"", "Examples:",
        "  kvasir ready",
        "  kvasir ready --wait 60s http://127.0.0.1:8080",
        "  kvasir ready --insecure https://127.0.0.1:4512"})
final class ReadyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "0..1", paramLabel = "URL",
      defaultValue = "http://127.0.0.1:${env:KVASIR_PORT:-4512}",
      description = "The server. Default: ${DEFAULT-VALUE}")
  String url;

  @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "0",
      description = "Ask again every half second until ready or this long has passed"
          + " (e.g. 60s). Default: ask once.")
  Duration wait;

  @Option(names = "--insecure",
      description = "Accept any TLS certificate: for a probe of a server on the same host,"
          + " whose certificate names its public host.")
  boolean insecure;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing; the exit status tells.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    HttpClient http = client();
    URI readyz = URI.create(url.replaceAll("/+$", "") + "/readyz");
    long deadline = System.nanoTime() + wait.toNanos();
    String answer;
    int status;
    while (true) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(readyz)
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        status = r.statusCode() == 200 ? 0 : Kvasir.FAILED;
        answer = r.statusCode() + " " + r.body().strip();
      } catch (IOException e) {
        status = Kvasir.DATABASE_ERROR;
        answer = "no answer (" + e.getMessage() + ")";
      }
      if (status == 0 || System.nanoTime() >= deadline) {
        break;
      }
      Thread.sleep(500);
    }
    if (!quiet) {
      out.println(url + ": " + answer);
    }
    return status;
  }

  private HttpClient client() throws Exception {
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    if (insecure) {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {new TrustingEverything()}, new SecureRandom());
      b.sslContext(tls);
    }
    return b.build();
  }

  /**
   * For {@code --insecure} only. An extended trust manager, so that the JDK adds no host name
   * check of its own around it.
   */
  private static final class TrustingEverything extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
