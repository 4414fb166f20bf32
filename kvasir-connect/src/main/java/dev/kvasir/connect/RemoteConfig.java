package dev.kvasir.connect;

import dev.kvasir.KvException;
import dev.kvasir.KvOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link RemoteEngine} reaches a KV Connect server. From {@link KvOptions}:
 *
 * <ul>
 *   <li>{@code accessToken}: the bearer token; default the environment variable {@code
 *       DENO_KV_ACCESS_TOKEN}, as Deno;
 *   <li>{@code remote.maxRetries}: attempts after a 5xx or network error (default 10);
 *   <li>{@code remote.retryDelayMs}: the first retry's delay, doubled each time up to 5 s
 *       (default 200, Deno's);
 *   <li>{@code remote.timeoutMs}: one request's time limit (default 30 000).
 * </ul>
 */
public record RemoteConfig(URI url, String accessToken, int maxRetries, Duration retryDelay,
    Duration timeout) {
  public RemoteConfig {
    Objects.requireNonNull(url, "url");
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
        Duration.ofMillis(Long.parseLong(options.get("remote.timeoutMs").orElse("30000"))));
  }
}
