package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.ConnectProxy;
import dev.kvasir.testkit.TestCertificates;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands against {@code kvasir serve} on https:// with a certificate that a private CA
 * signed, as an internal CA, cert-manager or step-ca issue them. The commands said to pass
 * engine options they have no way to pass; {@code --ca-file} (or {@code KVASIR_CA_FILE}) now
 * names the CA's certificate in PEM, as {@code curl --cacert} and Deno's {@code DENO_CERT} do.
 */
class PrivateCaIT {
  private static final String TOKEN = "private-ca-token-0123";

  @TempDir Path dir;

  @Test
  void theCaFile_fromTheOptionOrTheEnvironment_letsTheCommandsIn() throws Exception {
    TestCertificates ca = TestCertificates.create(dir);
    TestCertificates.Pem server = ca.issuePem(dir, "server-pem", "EC");
    try (ServeProcess serve = new ServeProcess(dir, Map.of(), "--port", "0",
        "--db", dir.resolve("tls.sqlite3").toString(), "--access-token", TOKEN,
        "--tls-cert", server.chain().toString(), "--tls-key", server.key().toString())) {
      String url = serve.url();
      assertThat(url).startsWith("https://");
      Jar kvasir = new Jar(dir);
      Map<String, String> token = Map.of("KVASIR_ACCESS_TOKEN", TOKEN);

      Jar.Run untrusted = kvasir.run(token, "get", "--db", url, "[\"k\"]");
      assertThat(untrusted.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(untrusted.err()).contains("TLS handshake").contains("--ca-file");

      Jar.Run set = kvasir.run(token, "set", "--db", url, "--ca-file",
          ca.caPem().toString(), "[\"k\"]", "\"over https\"");
      assertThat(set.exit()).as(set.err()).isZero();
      Jar.Run get = kvasir.run(Map.of("KVASIR_ACCESS_TOKEN", TOKEN, "KVASIR_CA_FILE",
          ca.caPem().toString()), "get", "--db", url, "[\"k\"]");
      assertThat(get.out()).as(get.err()).isEqualTo("\"over https\"\n");

      // Behind an outbound proxy, as curl and Deno take it from the environment.
      try (ConnectProxy proxy = ConnectProxy.start()) {
        Map<String, String> proxied = Map.of("KVASIR_ACCESS_TOKEN", TOKEN, "KVASIR_CA_FILE",
            ca.caPem().toString(), "HTTPS_PROXY", "http://127.0.0.1:" + proxy.port());
        Jar.Run through = kvasir.run(proxied, "get", "--db", url, "[\"k\"]");
        assertThat(through.out()).as(through.err()).isEqualTo("\"over https\"\n");
        int tunnels = proxy.tunnels().size();
        assertThat(tunnels).isPositive();
        Map<String, String> excluded = new HashMap<>(proxied);
        excluded.put("NO_PROXY", "localhost,127.0.0.1");
        assertThat(kvasir.run(excluded, "get", "--db", url, "[\"k\"]").out())
            .isEqualTo("\"over https\"\n");
        assertThat(proxy.tunnels()).hasSize(tunnels);
      }

      // Exported for the remote database, it does not stop a command on a local file.
      Jar.Run local = kvasir.run(Map.of("KVASIR_CA_FILE", ca.caPem().toString()), "set",
          "--db", "local.sqlite3", "[\"k\"]", "1");
      assertThat(local.exit()).as(local.err()).isZero();
    }
  }
}
