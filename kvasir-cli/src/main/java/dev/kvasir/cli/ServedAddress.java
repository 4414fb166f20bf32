package dev.kvasir.cli;

import dev.kvasir.base.FileErrorReason;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import picocli.CommandLine;

/**
 * Where a {@code kvasir serve} started in this environment listens, worked out as {@code serve}
 * itself works out its options (the {@code KVASIR_*} variables, then the {@code --config} file):
 * what {@code kvasir ready} asks when given no URL, so that a health check or a service's
 * start-up probe sees the port and TLS the server was configured with (docs/operations.md §1).
 *
 * @param url the server's base URL, on the loopback address when it listens on every interface
 * @param certificates for https, the certificates the server may present: the first of {@code
 *     --tls-cert}, or those of the key entries of {@code --tls-keystore}; empty for http
 */
record ServedAddress(URI url, List<X509Certificate> certificates) {
  /**
   * The address of the server that {@code kvasir serve} would start with {@code config} (null:
   * {@code KVASIR_CONFIG}, if set), its settings read by a command line of its own.
   *
   * @throws IllegalArgumentException for a setting that is wrong, or no fixed port
   */
  static ServedAddress of(Path config, PrintWriter out, PrintWriter err) {
    String[] args = config == null ? new String[] {"serve"}
        : new String[] {"serve", "--config", config.toString()};
    CommandLine kvasir = Kvasir.commandLineFor(args, new Kvasir(), out, err);
    kvasir.parseArgs(args);
    CommandLine serve = kvasir.getSubcommands().get("serve");
    ServeCommand settings = serve.getCommand();
    if (settings.config != null) {
      ConfigFile.apply(serve.getCommandSpec(), settings.config);
    }
    if (settings.port == 0) {
      throw new IllegalArgumentException("the server's port is 0 (any free port), so it cannot"
          + " be found: give kvasir ready its URL");
    }
    boolean tls = settings.tlsCert != null || settings.keystore != null;
    URI url = URI.create((tls ? "https://" : "http://") + probed(settings.host) + ":"
        + settings.port);
    List<X509Certificate> certificates = settings.tlsCert != null ? pem(settings.tlsCert)
        : settings.keystore != null ? keyEntries(settings.keystore, settings.keystorePassword)
        : List.of();
    return new ServedAddress(url, certificates);
  }

  /** The host to ask: the loopback address for a server on every interface. */
  private static String probed(String host) {
    if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      return "127.0.0.1";
    }
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /** The server's own certificate: the first of the chain. */
  private static List<X509Certificate> pem(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      Certificate first = CertificateFactory.getInstance("X.509").generateCertificate(in);
      return List.of((X509Certificate) first);
    } catch (IOException | GeneralSecurityException e) {
      throw unreadable(file, "--tls-cert", e);
    }
  }

  private static List<X509Certificate> keyEntries(Path file, String password) {
    try {
      KeyStore store = KeyStore.getInstance(file.toFile(),
          (password == null ? "" : password).toCharArray());
      List<X509Certificate> certificates = new ArrayList<>();
      for (String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias) && store.getCertificate(alias) instanceof X509Certificate c) {
          certificates.add(c);
        }
      }
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException("no key entry in " + file + " (the server's"
            + " --tls-keystore)");
      }
      return certificates;
    } catch (IOException | GeneralSecurityException e) {
      throw unreadable(file, "--tls-keystore", e);
    }
  }

  private static IllegalArgumentException unreadable(Path file, String option, Exception e) {
    return new IllegalArgumentException("cannot read the server's certificate " + file + " ("
        + option + "): " + (e instanceof IOException io ? FileErrorReason.of(io) : e.getMessage()),
        e);
  }
}
