package dev.kvasir.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A throw-away certificate authority and a server certificate it signed for {@code localhost}
 * and {@code 127.0.0.1}, made with the JDK's {@code keytool} at test time so no key is kept in
 * the repository. A CA (rather than one self-signed certificate) because Deno's TLS stack does
 * not accept a self-signed end-entity certificate as its own trust anchor.
 */
record TestCertificates(Path serverKeystore, Path trustStore, Path caPem) {
  static final String PASSWORD = "test-password";

  static TestCertificates create(Path dir) throws IOException, InterruptedException {
    Path ca = dir.resolve("ca.p12");
    Path caPem = dir.resolve("ca.pem");
    Path server = dir.resolve("server.p12");
    Path csr = dir.resolve("server.csr");
    Path signed = dir.resolve("server.pem");
    Path trust = dir.resolve("trust.p12");
    keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=Kvasir Test CA", "-ext", "bc:c", "-startdate", "-1d", "-validity", "3",
        "-keystore", ca.toString());
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(),
        "-file", caPem.toString());
    keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=localhost", "-keystore", server.toString());
    keytool("-certreq", "-alias", "server", "-keystore", server.toString(),
        "-file", csr.toString());
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(),
        "-infile", csr.toString(), "-outfile", signed.toString(),
        "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-ext", "EKU=serverAuth",
        "-ext", "KU=digitalSignature", "-startdate", "-1d", "-validity", "3");
    // The CA first, so that importing the signed reply installs the whole chain.
    keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", server.toString(),
        "-file", caPem.toString());
    keytool("-importcert", "-alias", "server", "-keystore", server.toString(),
        "-file", signed.toString());
    keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", trust.toString(),
        "-file", caPem.toString());
    return new TestCertificates(server, trust, caPem);
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
