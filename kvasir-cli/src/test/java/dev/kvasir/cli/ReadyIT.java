package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.TestCertificates;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir ready} as the systemd unit and the container image run it: without a URL, in
 * the server's environment. It asked {@code http://127.0.0.1:$KVASIR_PORT} whatever the
 * configuration said, so a port from the {@code --config} file, or TLS, made every probe fail
 * and the unit's start time out; and an https probe of a server whose certificate names its
 * public host was answered {@code 400 Invalid SNI}.
 */
class ReadyIT {
  private static final String TOKEN = "ready-probe-token-0123";

  @TempDir Path dir;

  @Test
  void withoutAUrl_asksTheServerTheConfigurationFileDescribes_overTls() throws Exception {
    TestCertificates ca = TestCertificates.create(dir);
    TestCertificates.Pem publicName = ca.issuePem(dir, "public", "EC", "kv.example.com");
    int port = freePort();
    Path config = Files.writeString(dir.resolve("kvasir.properties"), String.join("\n",
        "port = " + port, "host = 0.0.0.0", "tls-cert = " + publicName.chain(),
        "tls-key = " + publicName.key(), "access-token = " + TOKEN, ""));
    Jar kvasir = new Jar(dir);
    try (ServeProcess serve = new ServeProcess(dir, Map.of("KVASIR_CONFIG", config.toString()),
        "--db", dir.resolve("ready.sqlite3").toString())) {
      assertThat(serve.url()).startsWith("https://");

      Jar.Run fromVariable = kvasir.run(Map.of("KVASIR_CONFIG", config.toString()), "ready");
      assertThat(fromVariable.exit()).as(fromVariable.err()).isZero();
      assertThat(fromVariable.out())
          .isEqualTo("https://127.0.0.1:" + port + ": 200 ready\n");
      Jar.Run asJson = kvasir.run(Map.of("KVASIR_CONFIG", config.toString()), "ready", "--json");
      assertThat(asJson.out()).isEqualTo("{\"url\":\"https://127.0.0.1:" + port
          + "\",\"ready\":true,\"status\":200,\"answer\":\"ready\"}\n");
      Jar.Run fromOption = kvasir.run("ready", "--quiet", "--config", config.toString());
      assertThat(fromOption.exit()).as(fromOption.err()).isZero();
      assertThat(fromOption.out()).isEmpty();

      // Another certificate than the server's, as the environment names it, is not trusted.
      TestCertificates.Pem other = ca.issuePem(dir, "other", "EC", "kv.example.com");
      Jar.Run impostor = kvasir.run(Map.of("KVASIR_CONFIG", config.toString(),
          "KVASIR_TLS_CERT", other.chain().toString(), "KVASIR_TLS_KEY", other.key().toString()),
          "ready");
      assertThat(impostor.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(impostor.out()).contains("other than the one it is configured with");

      // By address with --insecure, as before; the server no longer answers it 400.
      Jar.Run insecure = kvasir.run("ready", "--insecure", "https://127.0.0.1:" + port);
      assertThat(insecure.out()).as(insecure.err()).endsWith(": 200 ready\n");
    }
  }

  @Test
  void aServerThatIsNotThere_orASettingThatIsWrong_isSaidInWords() throws Exception {
    int port = freePort();
    Jar kvasir = new Jar(dir);
    Jar.Run refused = kvasir.run(Map.of("KVASIR_PORT", Integer.toString(port)), "ready");
    assertThat(refused.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(refused.out()).isEqualTo("http://127.0.0.1:" + port + ": no answer (connection"
        + " refused: nothing listens at 127.0.0.1 port " + port + ")\n");
    Jar.Run refusedJson = kvasir.run(Map.of("KVASIR_PORT", Integer.toString(port)), "ready",
        "--json");
    assertThat(refusedJson.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(refusedJson.out()).isEqualTo("{\"url\":\"http://127.0.0.1:" + port
        + "\",\"ready\":false,\"status\":null,\"error\":\"connection refused: nothing listens"
        + " at 127.0.0.1 port " + port + "\"}\n");

    Jar.Run missing = kvasir.run("ready", "--config", "missing.properties");
    assertThat(missing.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(missing.err()).contains("missing.properties: no such file");
    Path anyPort = Files.writeString(dir.resolve("any.properties"), "port = 0\n");
    Jar.Run unknowable = kvasir.run("ready", "--config", anyPort.toString());
    assertThat(unknowable.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(unknowable.err()).contains("give kvasir ready its URL");
    Jar.Run caForHttp = kvasir.run("ready", "--ca-file", "ca.pem", "http://127.0.0.1:" + port);
    assertThat(caForHttp.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(caForHttp.err()).contains("--ca-file is for an https:// URL");
    // Java's own words before: "unsupported URI http://kv_server:4512/readyz", "URI with
    // undefined scheme".
    Jar.Run underscore = kvasir.run("ready", "http://kv_server:4512");
    assertThat(underscore.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(underscore.err()).startsWith("error: 'http://kv_server:4512' names no valid host"
        + " and port: a host name holds letters, digits, '-' and '.', not '_'");
    Jar.Run noScheme = kvasir.run("ready", "localhost:4512");
    assertThat(noScheme.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(noScheme.err()).contains("starts with neither http:// nor https://");
  }

  @Test
  void aPrivateCa_isTrustedThroughTheCaFile() throws Exception {
    TestCertificates ca = TestCertificates.create(dir);
    TestCertificates.Pem server = ca.issuePem(dir, "server-pem", "EC");
    try (ServeProcess serve = new ServeProcess(dir, Map.of(), "--port", "0",
        "--db", dir.resolve("ca.sqlite3").toString(), "--access-token", TOKEN,
        "--tls-cert", server.chain().toString(), "--tls-key", server.key().toString())) {
      Jar kvasir = new Jar(dir);
      Jar.Run untrusted = kvasir.run("ready", serve.url());
      assertThat(untrusted.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(untrusted.out()).contains("TLS handshake failed").contains("--ca-file");
      Jar.Run trusted = kvasir.run("ready", "--ca-file", ca.caPem().toString(), serve.url());
      assertThat(trusted.exit()).as(trusted.out() + trusted.err()).isZero();
      Jar.Run fromVariable = kvasir.run(Map.of("KVASIR_CA_FILE", ca.caPem().toString()),
          "ready", serve.url());
      assertThat(fromVariable.exit()).as(fromVariable.out()).isZero();
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
