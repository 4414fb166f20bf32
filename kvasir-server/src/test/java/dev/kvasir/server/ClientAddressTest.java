package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Whose address the access log names, behind trusted proxies and before untrusted ones. */
class ClientAddressTest {
  private static final ClientAddress BEHIND_NGINX =
      ClientAddress.trusting(List.of("127.0.0.1", "10.0.0.0/8", "fd00::/8"));

  @Test
  void withoutTrustedProxies_theHeaderIsIgnored() {
    ClientAddress none = ClientAddress.trusting(List.of());
    assertThat(none.of("203.0.113.9", List.of("198.51.100.1"))).isEqualTo("203.0.113.9");
  }

  @Test
  void fromATrustedProxy_theClientIsTheRightMostAddressThatIsNoProxy() {
    assertThat(BEHIND_NGINX.of("127.0.0.1", List.of("198.51.100.7"))).isEqualTo("198.51.100.7");
    // A load balancer (10.1.2.3) before nginx; the client's own claim (1.1.1.1) is not believed.
    assertThat(BEHIND_NGINX.of("127.0.0.1", List.of("1.1.1.1, 198.51.100.7", "10.1.2.3")))
        .isEqualTo("198.51.100.7");
    assertThat(BEHIND_NGINX.of("127.0.0.1", List.of("2001:db8::5, fd12::1")))
        .isEqualTo("2001:db8::5");
    // Nothing but proxies: the first of them; no header at all: the proxy itself.
    assertThat(BEHIND_NGINX.of("127.0.0.1", List.of("10.0.0.5, 10.0.0.6"))).isEqualTo("10.0.0.5");
    assertThat(BEHIND_NGINX.of("127.0.0.1", List.of())).isEqualTo("127.0.0.1");
    // What is no address (nginx's "unknown", a name) is never taken for a proxy.
    assertThat(BEHIND_NGINX.of("127.0.0.1", List.of("unknown"))).isEqualTo("unknown");
  }

  @Test
  void fromAnyoneElse_theHeaderIsIgnored_forAnyClientCanWriteIt() {
    assertThat(BEHIND_NGINX.of("203.0.113.9", List.of("198.51.100.1")))
        .isEqualTo("203.0.113.9");
    assertThat(BEHIND_NGINX.of("11.0.0.1", List.of("198.51.100.1"))).isEqualTo("11.0.0.1");
  }

  @Test
  void networksMatchOnTheirPrefix_andMappedIpv4IsIpv4() {
    ClientAddress odd = ClientAddress.trusting(List.of("192.168.4.0/22", "::1"));
    assertThat(odd.of("192.168.7.255", List.of("x"))).isEqualTo("x");
    assertThat(odd.of("192.168.8.0", List.of("x"))).isEqualTo("192.168.8.0");
    assertThat(odd.of("[::1]", List.of("x"))).isEqualTo("x");
    assertThat(odd.of("::ffff:192.168.5.1", List.of("x"))).isEqualTo("x");
  }

  @Test
  void whatIsNoAddress_isRefused_withoutAskingDns() {
    assertThatThrownBy(() -> ClientAddress.trusting(List.of("proxy.internal")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("an IP address or a network such as 10.0.0.0/8");
    assertThatThrownBy(() -> ClientAddress.trusting(List.of("10.0.0.0/33")))
        .hasMessageContaining("is 0 to 32");
    assertThatThrownBy(() -> ClientAddress.trusting(List.of("300.1.1.1")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ClientAddress.literal("999.1.1.1")).isNull();
    assertThat(ClientAddress.literal("example.com")).isNull();
  }
}
