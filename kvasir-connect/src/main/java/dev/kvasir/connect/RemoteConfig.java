package dev.kvasir.connect;

import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

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
 *   <li>{@code remote.trustStore} and {@code remote.trustStorePassword}: a PKCS12 or JKS file
 *       whose certificates are the only ones trusted for {@code https://}, e.g. the CA of a
 *       self-hosted server; default the JVM's trusted certificates.
 * </ul>
 */
public record RemoteConfig(URI url, String accessToken, int maxRetries, Duration retryDelay,
    Duration timeout, Optional<Path> trustStore, String trustStorePassword) {
  public RemoteConfig {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(trustStore, "trustStore");
    if (accessToken == null || accessToken.isEmpty()) {
      throw new KvException("no access token for " + url + ": pass the option accessToken or"
          + " set the environment variable DENO_KV_ACCESS_TOKEN");
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("remote.maxRetries must be >= 0: " + maxRetries);
    }
  }

  public static RemoteConfig from(String location, KvOptions options) {
    String token = options.get("accessToken").orElse(System.getenv("DENO_KV_ACCESS_TOKEN"));
    return new RemoteConfig(URI.create(location), token,
        Integer.parseInt(options.get("remote.maxRetries").orElse("10")),
        Duration.ofMillis(Long.parseLong(options.get("remote.retryDelayMs").orElse("200"))),
        Duration.ofMillis(Long.parseLong(options.get("remote.timeoutMs").orElse("30000"))),
        options.get("remote.trustStore").map(Path::of),
        options.get("remote.trustStorePassword").orElse(""));
  }

  /** The TLS context: the JVM's default, or one trusting only the configured trust store. */
  SSLContext sslContext() {
    try {
      if (trustStore.isEmpty()) {
        return SSLContext.getDefault();
      }
      KeyStore store = KeyStore.getInstance(trustStore.get().toFile(),
          trustStorePassword.toCharArray());
      TrustManagerFactory trust = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new KvException("cannot load the trust store " + trustStore.orElseThrow()
          + " (remote.trustStore): " + e.getMessage(), e);
    }
  }
}
