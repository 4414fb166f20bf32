package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.TestCertificates;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS from PEM files as certificate tools write them, and from a keystore, each taken again when
 * the files change (docs/operations.md §7). Certificates are made with {@code keytool}.
 */
class TlsFilesIT {
  @TempDir static Path dir;
  private static TestCertificates ca;
  private static KvEngine engine;

  @BeforeAll
  static void createCa() throws Exception {
    ca = TestCertificates.create(dir);
    engine = MemoryEngine.open();
  }

  @AfterAll
  static void close() {
    engine.close();
  }

  @Test
  void pemFiles_areServed_andARenewedCertificateIsTakenWithoutARestart() throws Exception {
    TestCertificates.Pem first = ca.issuePem(dir, "first", "EC");
    TestCertificates.Pem second = ca.issuePem(dir, "second", "EC");
    Path chain = dir.resolve("live-chain.pem");
    Path key = dir.resolve("live-key.pem");
    Files.copy(first.chain(), chain, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(first.key(), key, StandardCopyOption.REPLACE_EXISTING);
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .tlsPem(chain, key).tlsReloadInterval(Duration.ofMillis(200)).start()) {
      assertThat(servedSerial(server)).isEqualTo(first.serial());
      // As certbot renews: the chain first, the key a moment later.
      Files.copy(second.chain(), chain, StandardCopyOption.REPLACE_EXISTING);
      Thread.sleep(400);
      Files.copy(second.key(), key, StandardCopyOption.REPLACE_EXISTING);
      assertThat(awaitSerial(server, second.serial())).isEqualTo(second.serial());
    }
  }

  @Test
  void aKeystore_isTakenAgainWhenReplaced() throws Exception {
    Path live = dir.resolve("live.p12");
    Files.copy(ca.serverKeystore(), live, StandardCopyOption.REPLACE_EXISTING);
    TestCertificates.Pem next = ca.issuePem(dir, "next", "RSA");
    try (KvServer server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .tls(live, TestCertificates.PASSWORD).tlsReloadInterval(Duration.ofMillis(200))
        .start()) {
      BigInteger before = servedSerial(server);
      assertThat(before).isNotEqualTo(next.serial());
      Files.copy(dir.resolve("next.p12"), live, StandardCopyOption.REPLACE_EXISTING);
      assertThat(awaitSerial(server, next.serial())).isEqualTo(next.serial());
    }
  }

  @Test
  void keysInEveryPlainPemForm_areRead() throws Exception {
    TestCertificates.Pem rsa = ca.issuePem(dir, "rsa", "RSA");
    TestCertificates.Pem ec = ca.issuePem(dir, "ec", "EC");
    for (var c : new Object[][] {{rsa, "RSA PRIVATE KEY"}, {ec, "EC PRIVATE KEY"}}) {
      TestCertificates.Pem pem = (TestCertificates.Pem) c[0];
      // PKCS#1 and SEC 1 are the structures PKCS#8 wraps: its last OCTET STRING.
      byte[] inner = innerOctetString(pem.privateKey().getEncoded());
      Path legacy = dir.resolve(c[1].toString().replace(' ', '-') + ".pem");
      Files.writeString(legacy, TestCertificates.pem(c[1].toString(), inner));
      KeyStore store = PemCredentials.load(pem.chain(), legacy);
      assertThat(((X509Certificate) store.getCertificate("kvasir")).getSerialNumber())
          .isEqualTo(pem.serial());
      assertThat(store.getCertificateChain("kvasir")).hasSize(2);
      assertThat(store.getKey("kvasir", PemCredentials.STORE_PASSWORD.toCharArray())
          .getEncoded()).isEqualTo(pem.privateKey().getEncoded());
    }
  }

  @Test
  void aKeyOfAnotherCertificate_anEncryptedKey_andNoKey_areRefusedNamingTheFile()
      throws Exception {
    TestCertificates.Pem a = ca.issuePem(dir, "a", "EC");
    TestCertificates.Pem b = ca.issuePem(dir, "b", "EC");
    assertThatThrownBy(() -> PemCredentials.load(a.chain(), b.key()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(b.key().toString()).hasMessageContaining("does not belong");
    Path encrypted = dir.resolve("encrypted.pem");
    Files.writeString(encrypted, TestCertificates.pem("ENCRYPTED PRIVATE KEY", new byte[64]));
    assertThatThrownBy(() -> PemCredentials.load(a.chain(), encrypted))
        .hasMessageContaining("encrypted");
    assertThatThrownBy(() -> PemCredentials.load(a.chain(), a.chain()))
        .hasMessageContaining("holds no PEM private key");
    assertThatThrownBy(() -> PemCredentials.load(a.key(), a.key()))
        .hasMessageContaining("holds no PEM certificate");
    Path missing = dir.resolve("missing.pem"); // said "cannot read F: F", the path twice
    assertThatThrownBy(() -> PemCredentials.load(missing, a.key()))
        .hasMessage("cannot read " + missing + ": no such file or directory");
    // Refused as the builder is configured, before any engine is given (the CLI checks its
    // options so before it opens the database).
    assertThatThrownBy(() -> KvServer.builder().tlsPem(a.chain(), b.key()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not belong");
    assertThatThrownBy(() -> KvServer.builder().tls(encrypted, "secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot read the keystore " + encrypted);
    assertThatThrownBy(() -> KvServer.builder().accessToken(Served.TOKEN).port(0).start())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no engine");
  }

  /** The serial number of the certificate a new connection is served. */
  private static BigInteger servedSerial(KvServer server) throws Exception {
    SSLContext tls = ca.trusting();
    HttpClient http = HttpClient.newBuilder().sslContext(tls).build(); // a new connection
    HttpResponse<String> r = http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/healthz")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return ((X509Certificate) r.sslSession().orElseThrow().getPeerCertificates()[0])
        .getSerialNumber();
  }

  private static BigInteger awaitSerial(KvServer server, BigInteger wanted) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    BigInteger served = servedSerial(server);
    while (!served.equals(wanted) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      served = servedSerial(server);
    }
    return served;
  }

  /** The contents of the last OCTET STRING at the top level of a DER SEQUENCE. */
  private static byte[] innerOctetString(byte[] der) {
    int pos = 1 + lengthBytes(der, 1); // into the outer SEQUENCE
    byte[] last = null;
    while (pos < der.length) {
      int tag = der[pos] & 0xff;
      int lengthAt = pos + 1;
      int length = length(der, lengthAt);
      int contents = lengthAt + lengthBytes(der, lengthAt);
      if (tag == 0x04) {
        last = Arrays.copyOfRange(der, contents, contents + length);
      }
      pos = contents + length;
    }
    return last;
  }

  private static int lengthBytes(byte[] der, int at) {
    int first = der[at] & 0xff;
    return first < 0x80 ? 1 : 1 + (first & 0x7f);
  }

  private static int length(byte[] der, int at) {
    int first = der[at] & 0xff;
    if (first < 0x80) {
      return first;
    }
    int n = 0;
    for (int i = 1; i <= (first & 0x7f); i++) {
      n = n << 8 | (der[at + i] & 0xff);
    }
    return n;
  }
}
