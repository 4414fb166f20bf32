package dev.kvasir.testkit;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away certificate authority and a server certificate it signed for {@code localhost}
 * and {@code 127.0.0.1}, made with the JDK's {@code keytool} at test time so no key is kept in
 * the repository. A CA (rather than one self-signed certificate) because Deno's TLS stack does
 * not accept a self-signed end-entity certificate as its own trust anchor.
 */
public record TestCertificates(Path serverKeystore, Path trustStore, Path caPem, Path caKeystore) {
  public static final String PASSWORD = "test-password";
  /** The name of the certificates made by default, which also hold the address 127.0.0.1. */
  private static final String LOCALHOST = "localhost";

  public static TestCertificates create(Path dir) throws IOException, InterruptedException {
    Path ca = dir.resolve("ca.p12");
    Path caPem = dir.resolve("ca.pem");
    Path trust = dir.resolve("trust.p12");
    keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=Kvasir Test CA", "-ext", "bc:c", "-startdate", "-1d", "-validity", "3",
        "-keystore", ca.toString());
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(),
        "-file", caPem.toString());
    keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", trust.toString(),
        "-file", caPem.toString());
    TestCertificates made = new TestCertificates(null, trust, caPem, ca);
    return new TestCertificates(made.signedKeystore(dir, "server", "EC", LOCALHOST), trust,
        caPem, ca);
  }

  /**
   * The keystore {@code dir/NAME.p12}: a new key pair ({@code EC} or {@code RSA}) under the
   * alias NAME with a certificate for {@code host} signed by this CA, and the CA's certificate,
   * so that it holds the whole chain.
   */
  private Path signedKeystore(Path dir, String name, String keyAlgorithm, String host)
      throws IOException, InterruptedException {
    Path store = dir.resolve(name + ".p12");
    Path csr = dir.resolve(name + ".csr");
    Path signed = dir.resolve(name + "-signed.pem");
    keytool("-genkeypair", "-alias", name, "-keyalg", keyAlgorithm, "-dname", "CN=" + host,
        "-keystore", store.toString());
    keytool("-certreq", "-alias", name, "-keystore", store.toString(), "-file", csr.toString());
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caKeystore.toString(),
        "-infile", csr.toString(), "-outfile", signed.toString(),
        "-ext", host.equals(LOCALHOST) ? "SAN=dns:localhost,ip:127.0.0.1" : "SAN=dns:" + host,
        "-ext", "EKU=serverAuth",
        "-ext", keyAlgorithm.equals("RSA") ? "KU=digitalSignature,keyEncipherment"
            : "KU=digitalSignature", "-startdate", "-1d", "-validity", "3");
    // The CA first, so that importing the signed reply installs the whole chain.
    keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", store.toString(),
        "-file", caPem.toString());
    keytool("-importcert", "-alias", name, "-keystore", store.toString(),
        "-file", signed.toString());
    return store;
  }

  /** A server certificate in PEM files, as certificate tools write them. */
  public record Pem(Path chain, Path key, BigInteger serial, PrivateKey privateKey) {}

  /**
   * A new key pair ({@code EC} or {@code RSA}) and a certificate for it signed by this CA, as a
   * PEM chain (the certificate, then the CA's) and a PKCS#8 PEM key, in {@code dir/NAME.*};
   * also as the keystore {@code dir/NAME.p12}.
   */
  public Pem issuePem(Path dir, String name, String keyAlgorithm)
      throws IOException, InterruptedException, GeneralSecurityException {
    return issuePem(dir, name, keyAlgorithm, LOCALHOST);
  }

  /**
   * As {@link #issuePem(Path, String, String)}, for the DNS name {@code host} only, as a public
   * server's certificate: it names neither {@code localhost} nor an address.
   */
  public Pem issuePem(Path dir, String name, String keyAlgorithm, String host)
      throws IOException, InterruptedException, GeneralSecurityException {
    Path store = signedKeystore(dir, name, keyAlgorithm, host);
    KeyStore keys = KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
    PrivateKey key = (PrivateKey) keys.getKey(name, PASSWORD.toCharArray());
    X509Certificate cert = (X509Certificate) keys.getCertificate(name);
    Path chain = dir.resolve(name + "-chain.pem");
    Files.writeString(chain, pem("CERTIFICATE", cert.getEncoded()) + Files.readString(caPem));
    Path keyFile = dir.resolve(name + "-key.pem");
    Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
    return new Pem(chain, keyFile, cert.getSerialNumber(), key);
  }

  /** TLS for a client that trusts this CA. */
  public SSLContext trusting() throws IOException, GeneralSecurityException {
    KeyStore trust = KeyStore.getInstance(trustStore.toFile(), PASSWORD.toCharArray());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, tmf.getTrustManagers(), null);
    return tls;
  }

  /** Bytes as a PEM block of {@code type}. */
  public static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
