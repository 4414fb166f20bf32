package dev.kvasir.connect;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * How {@link RemoteEngine} reaches a KV Connect server. From {@link KvOptions}:
 *
 * <ul>
 *   <li>{@code accessToken}: the bearer token; default the environment variable {@code
 *       DENO_KV_ACCESS_TOKEN}, as Deno;
 *   <li>{@code remote.maxRetries}: attempts after a 5xx, 408 or 429 answer or a network
 *       error (default 10);
 *   <li>{@code remote.retryDelayMs}: the first retry's delay, doubled each time up to 5 s
 *       (default 200, Deno's);
 *   <li>{@code remote.timeoutMs}: one request's time limit (default 30 000);
 *   <li>{@code remote.deadlineMs}: the time limit of a call with its retries: no attempt starts
 *       after it, and an attempt's time limit is cut to what is left (default none, so only
 *       {@code remote.maxRetries} ends the retries). Not for a watch stream, which has no end;
 *       the command line sets it from {@code --timeout};
 *   <li>{@code remote.trustStore} and {@code remote.trustStorePassword}: a PKCS12 or JKS file
 *       whose certificates are the only ones trusted for {@code https://}, e.g. the CA of a
 *       self-hosted server; default the JVM's trusted certificates;
 *   <li>{@code remote.caFile}: a PEM file of CA certificates trusted as well (a private CA's, as
 *       Deno's {@code DENO_CERT}); the command line's {@code --ca-file}.
 *   <li>{@code remote.proxy}: the HTTP proxy for an {@code https://} server,
 *       {@code http://[user:password@]host:port}, or {@code none}; default the JVM's {@code
 *       https.proxyHost}, else the environment's {@code HTTPS_PROXY} ({@link RemoteProxy}).
 * </ul>
 *
 * {@link RemoteOptions} writes them typed; any other option is refused.
 */
public record RemoteConfig(URI url, String accessToken, int maxRetries, Duration retryDelay,
    Duration timeout, Optional<Duration> deadline, Optional<Path> trustStore,
    String trustStorePassword, Optional<Path> caFile, Optional<RemoteProxy> proxy) {
  private static final String EXAMPLE = " (a KV Connect URL looks like http://HOST:PORT)";

  public RemoteConfig {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(trustStore, "trustStore");
    Objects.requireNonNull(caFile, "caFile");
    Objects.requireNonNull(proxy, "proxy");
    if (accessToken == null || accessToken.isEmpty()) {
      throw new KvException("no access token for " + url + ": pass the option accessToken or"
          + " set the environment variable DENO_KV_ACCESS_TOKEN");
    }
    if (maxRetries < 0) {
      throw new KvArgumentException("remote.maxRetries must be >= 0: " + maxRetries);
    }
    if (Objects.requireNonNull(retryDelay, "retryDelay").isNegative()) {
      throw new KvArgumentException("remote.retryDelayMs must be >= 0: "
          + retryDelay.toMillis());
    }
    if (Objects.requireNonNull(timeout, "timeout").isNegative() || timeout.isZero()) {
      throw new KvArgumentException("remote.timeoutMs must be positive: " + timeout.toMillis());
    }
    if (deadline.isPresent() && (deadline.get().isNegative() || deadline.get().isZero())) {
      throw new KvArgumentException("remote.deadlineMs must be positive: "
          + deadline.get().toMillis());
    }
  }

  /**
   * The settings of {@code options} for {@code location}.
   *
   * @throws KvArgumentException for an option the engine does not read, or a bad value
   */
  public static RemoteConfig from(String location, KvOptions options) {
    options.requireKnown("remote", RemoteOptions.NAMES);
    String token = options.get(RemoteOptions.ACCESS_TOKEN)
        .orElse(System.getenv("DENO_KV_ACCESS_TOKEN"));
    URI url = serverUrl(location);
    return new RemoteConfig(url, token,
        options.intValue(RemoteOptions.MAX_RETRIES, 10, 0, Integer.MAX_VALUE),
        Duration.ofMillis(options.longValue(RemoteOptions.RETRY_DELAY_MS, 200)),
        Duration.ofMillis(options.longValue(RemoteOptions.TIMEOUT_MS, 30_000)),
        options.get(RemoteOptions.DEADLINE_MS)
            .map(ms -> Duration.ofMillis(options.longValue(RemoteOptions.DEADLINE_MS, 0))),
        options.get(RemoteOptions.TRUST_STORE).map(Path::of),
        options.get(RemoteOptions.TRUST_STORE_PASSWORD).orElse(""),
        options.get(RemoteOptions.CA_FILE).map(Path::of),
        RemoteProxy.forServer(url, options.get(RemoteOptions.PROXY), System.getProperties(),
            System.getenv()));
  }

  /**
   * {@code location} as a server's URL a client can call: it parses, is {@code http://} or
   * {@code https://}, and names a host and a port that exist. Java's URL parser and Jetty refused
   * the others with their own words ("Expected authority at index 7", "Invalid URI host:
   * null"), which name neither the option nor the rule.
   *
   * @throws KvArgumentException for any other
   */
  public static URI serverUrl(String location) {
    URI url;
    try {
      url = new URI(location);
    } catch (URISyntaxException e) {
      throw new KvArgumentException("'" + location + "' is not a KV Connect URL: "
          + e.getReason() + " at index " + e.getIndex() + EXAMPLE);
    }
    if (!"http".equalsIgnoreCase(url.getScheme()) && !"https".equalsIgnoreCase(url.getScheme())) {
      throw new KvArgumentException("'" + location + "' is not a KV Connect URL: it starts with"
          + " neither http:// nor https://" + EXAMPLE);
    }
    if (url.getHost() == null) {
      String authority = url.getRawAuthority();
      // Compose and Kubernetes allow '_' in service names; a URL's host name does not.
      boolean underscore = authority != null && authority.contains("_");
      throw new KvArgumentException("'" + location + "' names no valid host and port"
          + (underscore ? ": a host name holds letters, digits, '-' and '.', not '_', so use"
          + " another name for the server or its address" : "") + EXAMPLE);
    }
    if (url.getPort() > 65_535) {
      throw new KvArgumentException("'" + location + "' names port " + url.getPort()
          + ", beyond 65535" + EXAMPLE);
    }
    return url;
  }

  /**
   * The TLS context: the JVM's default; or trusting only the configured trust store; and either
   * way also the CA certificates of {@code caFile}.
   */
  SSLContext sslContext() {
    return TlsTrust.context(trustStore, trustStorePassword, "remote.trustStore", caFile,
        "remote.caFile");
  }
}
