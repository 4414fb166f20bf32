package dev.kvasir.cli;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS trust of {@code kvasir ready} probing a server on its own host, whose certificate
 * names the public host rather than the address probed: any certificate ({@code --insecure}), or
 * exactly the certificates the server was configured to present. Extended trust managers, so
 * that the JDK adds no host name check of its own around them.
 */
final class ProbeTrust extends X509ExtendedTrustManager {
  /** The certificates accepted as the server's; null for any. */
  private final List<X509Certificate> pinned;

  private ProbeTrust(List<X509Certificate> pinned) {
    this.pinned = pinned;
  }

  /** Trusting any certificate. */
  static SSLContext anyCertificate() {
    return context(new ProbeTrust(null));
  }

  /** Trusting a server that presents one of {@code certificates} as its own. */
  static SSLContext exactly(List<X509Certificate> certificates) {
    return context(new ProbeTrust(List.copyOf(certificates)));
  }

  private static SSLContext context(ProbeTrust trust) {
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {trust}, new SecureRandom());
      return tls;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS in this JVM: " + e.getMessage(), e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (pinned != null && (chain.length == 0 || !pinned.contains(chain[0]))) {
      throw new CertificateException("the server presents a certificate other than the one it"
          + " is configured with (" + (chain.length == 0 ? "none"
              : chain[0].getSubjectX500Principal().getName()) + ")");
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
