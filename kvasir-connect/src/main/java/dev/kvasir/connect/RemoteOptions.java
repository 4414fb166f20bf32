package dev.kvasir.connect;

import dev.kvasir.base.KvOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The options of a remote ({@code http(s)://}) database, typed: {@code
 * Kv.open("https://kv.example.com", RemoteOptions.defaults().accessToken(token).build())}. The
 * engine refuses an option it does not know. Immutable; see {@link RemoteConfig} for each.
 */
public final class RemoteOptions {
  static final String ACCESS_TOKEN = "accessToken";
  static final String MAX_RETRIES = "remote.maxRetries";
  static final String RETRY_DELAY_MS = "remote.retryDelayMs";
  static final String TIMEOUT_MS = "remote.timeoutMs";
  static final String DEADLINE_MS = "remote.deadlineMs";
  static final String TRUST_STORE = "remote.trustStore";
  static final String TRUST_STORE_PASSWORD = "remote.trustStorePassword";
  static final String CA_FILE = "remote.caFile";
  static final String PROXY = "remote.proxy";
  /** Every option the engine reads. */
  static final Set<String> NAMES = Set.of(ACCESS_TOKEN, MAX_RETRIES, RETRY_DELAY_MS, TIMEOUT_MS,
      DEADLINE_MS, TRUST_STORE, TRUST_STORE_PASSWORD, CA_FILE, PROXY);

  private static final RemoteOptions DEFAULTS = new RemoteOptions(KvOptions.defaults());

  private final KvOptions options;

  private RemoteOptions(KvOptions options) {
    this.options = options;
  }

  public static RemoteOptions defaults() {
    return DEFAULTS;
  }

  public RemoteOptions accessToken(String token) {
    return new RemoteOptions(options.with(ACCESS_TOKEN, Objects.requireNonNull(token)));
  }

  public RemoteOptions maxRetries(int retries) {
    return new RemoteOptions(options.with(MAX_RETRIES, Integer.toString(retries)));
  }

  public RemoteOptions retryDelay(Duration delay) {
    return new RemoteOptions(options.with(RETRY_DELAY_MS, Long.toString(delay.toMillis())));
  }

  public RemoteOptions timeout(Duration timeout) {
    return new RemoteOptions(options.with(TIMEOUT_MS, Long.toString(timeout.toMillis())));
  }

  /** A call's time limit with its retries ({@link RemoteConfig}). */
  public RemoteOptions deadline(Duration deadline) {
    return new RemoteOptions(options.with(DEADLINE_MS, Long.toString(deadline.toMillis())));
  }

  /** Trust only the certificates of this PKCS12 or JKS file (a self-hosted server's CA). */
  public RemoteOptions trustStore(Path file, String password) {
    return new RemoteOptions(options.with(TRUST_STORE, file.toString())
        .with(TRUST_STORE_PASSWORD, Objects.requireNonNull(password)));
  }

  /**
   * Also trust the CA certificates of this PEM file (a private CA's, as {@code curl --cacert}
   * and Deno's {@code DENO_CERT} take it), besides the JVM's or the trust store's.
   */
  public RemoteOptions caFile(Path pemFile) {
    return new RemoteOptions(options.with(CA_FILE, pemFile.toString()));
  }

  /**
   * Reach an {@code https://} server through this HTTP proxy ({@code http://host:port}, with
   * {@code user:password@} for basic authentication), or not through any ({@code "none"}),
   * whatever the JVM's {@code https.proxyHost} and the environment's {@code HTTPS_PROXY} say.
   */
  public RemoteOptions proxy(String proxy) {
    return new RemoteOptions(options.with(PROXY, Objects.requireNonNull(proxy)));
  }

  /** The options for {@code Kv.open} or {@code Kv.builder(…).options(…)}. */
  public KvOptions build() {
    return options;
  }
}
