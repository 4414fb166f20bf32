package dev.kvasir.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvArgumentException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RemoteProxyTest {
  private static final URI SERVER = URI.create("https://kv.example.com");
  private static final Properties NO_JVM_PROXY = new Properties();

  @Test
  void theEnvironment_asCurlAndDenoReadIt() {
    assertThat(RemoteProxy.forServer(SERVER, Optional.empty(), NO_JVM_PROXY,
        Map.of("HTTPS_PROXY", "http://proxy.internal:3128")))
        .contains(new RemoteProxy("proxy.internal", 3128, null, null));
    assertThat(RemoteProxy.forServer(SERVER, Optional.empty(), NO_JVM_PROXY,
        Map.of("https_proxy", "proxy.internal:8080", "HTTPS_PROXY", "http://other:1")))
        .contains(new RemoteProxy("proxy.internal", 8080, null, null));
    assertThat(RemoteProxy.forServer(SERVER, Optional.empty(), NO_JVM_PROXY,
        Map.of("HTTPS_PROXY", "http://svc:s%40cret@proxy:3128")))
        .contains(new RemoteProxy("proxy", 3128, "svc", "s@cret"));
    // Plain http:// servers are internal ones: reached directly.
    assertThat(RemoteProxy.forServer(URI.create("http://kv.example.com"), Optional.empty(),
        NO_JVM_PROXY, Map.of("HTTPS_PROXY", "http://proxy:3128"))).isEmpty();
  }

  @Test
  void noProxy_coversHostsAndTheirDomains() {
    for (String noProxy : new String[] {"kv.example.com", "example.com", ".example.com",
        "other.org, example.com:443", "*"}) {
      assertThat(RemoteProxy.forServer(SERVER, Optional.empty(), NO_JVM_PROXY,
          Map.of("HTTPS_PROXY", "http://proxy:3128", "NO_PROXY", noProxy)))
          .as(noProxy).isEmpty();
    }
    assertThat(RemoteProxy.matchesNoProxy("kv.example.com", "ample.com,kv.example")).isFalse();
  }

  @Test
  void theJvmsProperties_winOverTheEnvironment_andTheOptionOverBoth() {
    Properties jvm = new Properties();
    jvm.setProperty("https.proxyHost", "jvm-proxy");
    jvm.setProperty("https.proxyPort", "8443");
    Map<String, String> env = Map.of("HTTPS_PROXY", "http://env-proxy:3128");
    assertThat(RemoteProxy.forServer(SERVER, Optional.empty(), jvm, env))
        .contains(new RemoteProxy("jvm-proxy", 8443, null, null));
    jvm.setProperty("http.nonProxyHosts", "localhost|*.example.com");
    assertThat(RemoteProxy.forServer(SERVER, Optional.empty(), jvm, env)).isEmpty();
    assertThat(RemoteProxy.forServer(SERVER, Optional.of("none"), jvm, env)).isEmpty();
    assertThat(RemoteProxy.forServer(SERVER, Optional.of("http://opt:9"), jvm, env))
        .contains(new RemoteProxy("opt", 9, null, null));
  }

  @Test
  void aProxyThatIsNotAnHttpUrl_isRefused_withoutItsPassword() {
    assertThatThrownBy(() -> RemoteProxy.forServer(SERVER,
        Optional.of("socks5://u:hunter2@proxy:1080"), NO_JVM_PROXY, Map.of()))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("remote.proxy must be an http:// proxy")
        .hasMessageNotContaining("hunter2");
    assertThat(new RemoteProxy("p", 1, "u", "hunter2").toString())
        .isEqualTo("http://u:***@p:1");
    // It was Java's IllegalArgumentException, "port out of range:99999", when first used.
    assertThatThrownBy(() -> RemoteProxy.forServer(SERVER, Optional.of("proxy:99999"),
        NO_JVM_PROXY, Map.of())).isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("remote.proxy must be an http:// proxy");
  }
}
