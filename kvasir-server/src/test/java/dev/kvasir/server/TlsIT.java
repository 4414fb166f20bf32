package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.RemoteException;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.ConnectProxy;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.testkit.TestCertificates;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS with a keystore: h2 by ALPN, Kvasir's client with a trust store, and the real Deno. */
class TlsIT {
  @TempDir static Path dir;
  private static TestCertificates certificates;
  private static KvEngine engine;
  private static KvServer server;

  @BeforeAll
  static void start() throws Exception {
    certificates = TestCertificates.create(dir);
    engine = MemoryEngine.open();
    server = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .tls(certificates.serverKeystore(), TestCertificates.PASSWORD).start();
  }

  @AfterAll
  static void stop() {
    server.close();
    engine.close();
  }

  private static KvOptions trusting() {
    return KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.trustStore", certificates.trustStore().toString())
        .with("remote.trustStorePassword", TestCertificates.PASSWORD);
  }

  @Test
  void servesHttp2OverTls_negotiatedByAlpn() throws Exception {
    SSLContext tls = certificates.trusting();
    HttpClient http = HttpClient.newBuilder().sslContext(tls)
        .version(HttpClient.Version.HTTP_2).build();
    assertThat(server.url()).startsWith("https://127.0.0.1:");
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.url() + "/"))
        .header("authorization", "Bearer " + Served.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString("{\"supportedVersions\":[3]}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
  }

  @Test
  void kvasirClient_withTheTrustStore_readsAndWrites() {
    try (Kv kv = Kv.open(server.url(), trusting())) {
      kv.set(KvKey.of("tls", "java"), "over h2");
      assertThat(kv.get(KvKey.of("tls", "java")).value()).isEqualTo("over h2");
    }
  }

  @Test
  void kvasirClient_withTheCaInPem_readsAndWrites() {
    KvOptions options = KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.caFile", certificates.caPem().toString());
    try (Kv kv = Kv.open(server.url(), options)) {
      kv.set(KvKey.of("tls", "pem"), "trusted by its CA file");
      assertThat(kv.get(KvKey.of("tls", "pem")).value()).isEqualTo("trusted by its CA file");
    }
  }

  @Test
  void aCaFileWithoutCertificates_orMissing_isRefusedNamingIt() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.pem"), "not a certificate\n");
    KvOptions options = KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.caFile", empty.toString());
    assertThatThrownBy(() -> Kv.open(server.url(), options))
        .hasMessageContaining(empty.toString()).hasMessageContaining("remote.caFile");
    Path missing = dir.resolve("missing.pem");
    assertThatThrownBy(() -> Kv.open(server.url(), KvOptions.defaults()
        .with("accessToken", Served.TOKEN).with("remote.caFile", missing.toString())))
        .hasMessage("cannot read the CA certificates " + missing + " (remote.caFile): no such"
            + " file");
  }

  @Test
  void kvasirClient_withoutTheTrustStore_failsAtOnceAndSaysWhatToDo() {
    KvOptions untrusting = KvOptions.defaults().with("accessToken", Served.TOKEN);
    assertThatThrownBy(() -> Kv.open(server.url(), untrusting))
        .isInstanceOf(RemoteException.class)
        .hasMessageContaining("TLS handshake")
        .hasMessageContaining("remote.caFile").hasMessageContaining("--ca-file")
        .hasMessageContaining("remote.trustStore");
  }

  /**
   * A URL whose scheme the server does not speak: each way round the error says which to
   * give. The client saw a closed connection, or the JDK's "plaintext connection?" with the
   * advice to trust a CA, and a path under the URL a 404 with no word on the URL.
   */
  @Test
  void aUrlOfTheWrongSchemeOrWithAPath_isRefusedSayingWhatToGive() {
    KvOptions briefly = KvOptions.defaults().with("accessToken", Served.TOKEN)
        .with("remote.deadlineMs", "2000");
    assertThatThrownBy(() -> Kv.open(server.url().replace("https://", "http://"), briefly))
        .hasMessageContaining("if it has a certificate, its URL starts with https://");
    try (KvServer plain = KvServer.builder(engine).accessToken(Served.TOKEN).port(0).start()) {
      assertThatThrownBy(() -> Kv.open(plain.url().replace("http://", "https://"), briefly))
          .isInstanceOf(RemoteException.class).hasMessageEndingWith("the server answers without"
              + " TLS; the URL of a server started without a certificate (kvasir serve without"
              + " --tls-cert) starts with http://");
      assertThatThrownBy(() -> Kv.open(plain.url() + "/v2", briefly))
          .isInstanceOf(RemoteException.class).hasMessageContaining("(status=404)")
          .hasMessageContaining("Check the URL");
    }
  }

  /** Deno takes its proxy from HTTPS_PROXY, for KV Connect as for fetch. */
  @Test
  void deno_throughTheProxyOfItsEnvironment_runsEveryRemoteOperation() throws Exception {
    // A database of its own: the script expects an empty one.
    try (KvEngine fresh = MemoryEngine.open();
        KvServer own = KvServer.builder(fresh).accessToken(Served.TOKEN).port(0)
            .tls(certificates.serverKeystore(), TestCertificates.PASSWORD).start();
        ConnectProxy proxy = ConnectProxy.start()) {
      DenoPeer deno = DenoPeer.require(dir.resolve("deno"))
          .env("DENO_KV_ACCESS_TOKEN", Served.TOKEN)
          .env("DENO_CERT", certificates.caPem().toString())
          .env("HTTPS_PROXY", "http://127.0.0.1:" + proxy.port());
      assertThat(deno.run("remote.ts", own.url())).isEqualTo("ok");
      assertThat(proxy.tunnels()).isNotEmpty();
    }
  }

  @Test
  void deno_trustingTheCa_runsEveryRemoteOperationOverHttps() throws Exception {
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"))
        .env("DENO_KV_ACCESS_TOKEN", Served.TOKEN)
        .env("DENO_CERT", certificates.caPem().toString());
    assertThat(deno.run("remote.ts", server.url())).isEqualTo("ok");
  }

  /**
   * A Java service behind a company's outbound proxy reaches a hosted server only through the
   * proxy's CONNECT tunnels; the client had no way to use one.
   */
  @Test
  void kvasirClient_throughAnHttpProxy_tunnelsEveryCall() throws Exception {
    try (ConnectProxy proxy = ConnectProxy.start();
        Kv kv = Kv.open(server.url(), trusting()
            .with("remote.proxy", "http://127.0.0.1:" + proxy.port()))) {
      kv.set(KvKey.of("through"), "the proxy");
      assertThat(kv.get(KvKey.of("through")).value()).isEqualTo("the proxy");
      assertThat(proxy.tunnels()).isNotEmpty()
          .allMatch(t -> t.equals(URI.create(server.url()).getAuthority()));
    }
    try (ConnectProxy guarded = ConnectProxy.requiring("svc", "p@ss:word")) {
      String at = "127.0.0.1:" + guarded.port();
      assertThatThrownBy(() -> Kv.open(server.url(), trusting()
          .with("remote.proxy", "http://" + at).with("remote.maxRetries", "0")))
          .hasMessageContaining("407").hasMessageContaining("proxy http://" + at)
          .hasMessageContaining("http://user:password@host:port");
      try (Kv kv = Kv.open(server.url(), trusting()
          .with("remote.proxy", "http://svc:p%40ss%3Aword@" + at))) {
        assertThat(kv.get(KvKey.of("through")).value()).isEqualTo("the proxy");
      }
      assertThat(guarded.tunnels()).isNotEmpty();
    }
  }

  /**
   * Kubernetes' kubelet, a cloud load balancer's health check and {@code curl -k} ask the
   * address they reach, skipping certificate checks, and a public certificate names only the
   * public host. Jetty answered them {@code 400 Invalid SNI}, so the pod never became ready.
   */
  @Test
  void aProbeByAddress_ofAServerWhoseCertificateNamesAnotherHost_isAnswered() throws Exception {
    TestCertificates.Pem publicName = certificates.issuePem(dir, "public", "EC",
        "kv.example.com");
    try (KvServer named = KvServer.builder(engine).accessToken(Served.TOKEN).port(0)
        .tlsPem(publicName.chain(), publicName.key()).start()) {
      SSLContext anyCertificate = SSLContext.getInstance("TLS");
      anyCertificate.init(null, new TrustManager[] {new TrustingAnything()}, null);
      HttpClient probe = HttpClient.newBuilder().sslContext(anyCertificate).build();
      for (String path : new String[] {"/readyz", "/healthz"}) {
        HttpResponse<String> r = probe.send(HttpRequest.newBuilder(
            URI.create(named.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
      }
    }
  }

  /** A probe's trust: any certificate, and no check of the host name it holds. */
  private static final class TrustingAnything extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
