package dev.kvasir.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS served from files, taken again when they change (docs/operations.md §7): a certificate
 * renewed by certbot or cert-manager, or a new keystore, is served to new connections without a
 * restart. The files are looked at every {@code interval}; files that do not load (a chain
 * written before its key) leave the credentials in force and are tried again once they change.
 */
final class TlsFiles implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TlsFiles.class);

  private final List<Path> files;
  private final Supplier<KeyStore> load;
  private final SslContextFactory.Server ssl = new SslContextFactory.Server();
  private final ScheduledExecutorService timer;
  private List<String> seen;

  /**
   * Loads the credentials once (failing with the files' problem) and watches {@code files}.
   *
   * @param load reads the files into a key store whose key has the password {@code password}
   */
  TlsFiles(List<Path> files, Supplier<KeyStore> load, String password, Duration interval) {
    this.files = List.copyOf(files);
    this.load = load;
    this.seen = stamps();
    ssl.setKeyStore(load.get());
    ssl.setKeyStorePassword(password);
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "kvasir-tls-files");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  SslContextFactory.Server sslContextFactory() {
    return ssl;
  }

  /** Loads the files again if any changed since last looked at. */
  void check() {
    List<String> now = stamps();
    if (now.equals(seen)) {
      return;
    }
    seen = now;
    try {
      KeyStore store = load.get();
      ssl.reload(factory -> factory.setKeyStore(store));
      LOG.info("TLS credentials reloaded from {}", files);
    } catch (Exception e) {
      LOG.warn("TLS credentials in {} changed but cannot be used, so the old ones stay in"
          + " force: {}", files, e.getMessage());
    }
  }

  /** Each file's modification time and size, or that it is missing. */
  private List<String> stamps() {
    List<String> out = new ArrayList<>();
    for (Path f : files) {
      try {
        out.add(Files.getLastModifiedTime(f) + " " + Files.size(f));
      } catch (IOException e) {
        out.add("missing");
      }
    }
    return out;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
