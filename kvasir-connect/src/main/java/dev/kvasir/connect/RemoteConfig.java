package dev.kvasir.connect;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import java.net.URI;
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
 *   <li>{@code remote.maxRetries}: attempts after a 5xx or network error (default 10);
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
    URI url = URI.create(location);
    return new RemoteConfig(url, token,
        (int) options.longValue(RemoteOptions.MAX_RETRIES, 10),
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
   * The TLS context: the JVM's default; or trusting only the configured trust store; and either
   * way also the CA certificates of {@code caFile}.
   */
  SSLContext sslContext() {
    return TlsTrust.context(trustStore, trustStorePassword, "remote.trustStore", caFile,
        "remote.caFile");
  }
}
