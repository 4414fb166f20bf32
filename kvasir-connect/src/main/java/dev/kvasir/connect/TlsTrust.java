package dev.kvasir.connect;

import dev.kvasir.base.KvException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Whom a TLS client trusts: the JVM's certificate authorities, or only those of a trust store,
 * and either way also the CA certificates of a PEM file (a private CA's, as {@code curl --cacert}
 * and Deno's {@code DENO_CERT} take it). The remote engine's {@code remote.trustStore} and {@code
 * remote.caFile}, and the command line's {@code --ca-file}.
 */
public final class TlsTrust {
  private TlsTrust() {}

  /**
   * The TLS context that trusts as above; the JVM's default when neither file is given. {@code
   * trustStoreName} and {@code caFileName} name the settings in error messages.
   *
   * @throws KvException naming the file that cannot be read, or holds no certificate
   */
  public static SSLContext context(Optional<Path> trustStore, String trustStorePassword,
      String trustStoreName, Optional<Path> caFile, String caFileName) {
    if (trustStore.isEmpty() && caFile.isEmpty()) {
      try {
        return SSLContext.getDefault();
      } catch (GeneralSecurityException e) {
        throw new KvException("no TLS in this JVM: " + e.getMessage(), e);
      }
    }
    KeyStore trusted = trustStore.isPresent()
        ? load(trustStore.get(), trustStorePassword, trustStoreName) : null;
    if (caFile.isPresent()) {
      trusted = withCaFile(trusted, caFile.get(), caFileName);
    }
    try {
      TrustManagerFactory trust = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new KvException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  private static KeyStore load(Path file, String password, String name) {
    try {
      return KeyStore.getInstance(file.toFile(), password.toCharArray());
    } catch (IOException | GeneralSecurityException e) {
      throw new KvException("cannot load the trust store " + file + " (" + name + "): "
          + e.getMessage(), e);
    }
  }

  /**
   * {@code base} (null for the JVM's trusted certificates) with the certificates of {@code
   * file}.
   */
  private static KeyStore withCaFile(KeyStore base, Path file, String name) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (X509Certificate c : trustedBy(base)) {
        store.setCertificateEntry("trusted-" + n++, c);
      }
      Collection<? extends Certificate> added;
      try (InputStream in = Files.newInputStream(file)) {
        added = CertificateFactory.getInstance("X.509").generateCertificates(in);
      }
      if (added.isEmpty()) {
        throw new KvException("no certificate in " + file + " (" + name + "); it should hold"
            + " PEM blocks from -----BEGIN CERTIFICATE-----");
      }
      for (Certificate c : added) {
        store.setCertificateEntry("ca-file-" + n++, c);
      }
      return store;
    } catch (IOException | GeneralSecurityException e) {
      throw new KvException("cannot read the CA certificates " + file + " (" + name + "): "
          + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()), e);
    }
  }

  /** The certificates {@code store} trusts; the JVM's for null. */
  private static X509Certificate[] trustedBy(KeyStore store) throws GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance(
        TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager m : factory.getTrustManagers()) {
      if (m instanceof X509TrustManager x509) {
        return x509.getAcceptedIssuers();
      }
    }
    return new X509Certificate[0];
  }
}
