package dev.kvasir.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;

/**
 * Who sent a request, for the access log (docs/operations.md §6). Behind a reverse proxy or a
 * load balancer every request comes from the proxy, which names the client in {@code
 * X-Forwarded-For}; any client can send that header too, so it is believed only from the
 * proxies the operator names. The address is then the right-most one of the chain that is not
 * such a proxy: the one the first trusted proxy saw, whatever the client wrote before it.
 */
final class ClientAddress {
  private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

  private final List<Range> trusted;

  private ClientAddress(List<Range> trusted) {
    this.trusted = trusted;
  }

  /**
   * The addresses whose {@code X-Forwarded-For} is believed: each an IPv4 or IPv6 address, or a
   * network in CIDR form ({@code 10.0.0.0/8}, {@code fd00::/8}).
   *
   * @throws IllegalArgumentException for one that is neither
   */
  static ClientAddress trusting(List<String> proxies) {
    List<Range> ranges = new ArrayList<>();
    for (String proxy : proxies) {
      ranges.add(Range.parse(proxy.strip()));
    }
    return new ClientAddress(List.copyOf(ranges));
  }

  /** The client's address as this server can know it. */
  String of(Request request) {
    return of(Request.getRemoteAddr(request),
        request.getHeaders().getValuesList("X-Forwarded-For"));
  }

  /**
   * The client of a request from {@code peer}, given its {@code X-Forwarded-For} headers in the
   * order received.
   */
  String of(String peer, List<String> forwardedFor) {
    if (trusted.isEmpty() || !isTrusted(peer)) {
      return peer;
    }
    List<String> chain = new ArrayList<>();
    for (String header : forwardedFor) {
      for (String hop : header.split(",")) {
        if (!hop.isBlank()) {
          chain.add(hop.strip());
        }
      }
    }
    for (int i = chain.size() - 1; i >= 0; i--) {
      if (!isTrusted(chain.get(i))) {
        return chain.get(i);
      }
    }
    return chain.isEmpty() ? peer : chain.get(0);
  }

  /** Whether {@code peer} is one of the trusted proxies, whose forwarded headers are believed. */
  boolean trusts(String peer) {
    return !trusted.isEmpty() && isTrusted(peer);
  }

  private boolean isTrusted(String address) {
    byte[] bytes = literal(address);
    if (bytes == null) {
      return false; // "unknown", an obfuscated name: never a proxy of ours
    }
    for (Range range : trusted) {
      if (range.contains(bytes)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The bytes of an IP address literal ({@code [::1]} as well), IPv4-mapped IPv6 addresses as
   * IPv4; null for anything else. Never asks DNS: a name is not an address.
   */
  static byte[] literal(String text) {
    String s = text.startsWith("[") && text.endsWith("]")
        ? text.substring(1, text.length() - 1) : text;
    boolean ipv4 = IPV4.matcher(s).matches();
    if (ipv4) {
      for (String part : s.split("\\.")) {
        if (Integer.parseInt(part) > 255) {
          return null; // Java would take it for a name and ask DNS
        }
      }
    } else if (!s.contains(":") || !s.matches("[0-9a-fA-F:.]+")) {
      return null;
    }
    try {
      return InetAddress.getByName(s).getAddress(); // a literal: parsed, not looked up
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** An address and how many of its leading bits a match must share. */
  private record Range(byte[] network, int bits) {
    static Range parse(String spec) {
      int slash = spec.indexOf('/');
      String address = slash < 0 ? spec : spec.substring(0, slash);
      byte[] bytes = literal(address);
      if (bytes == null) {
        throw new IllegalArgumentException("a trusted proxy is an IP address or a network such"
            + " as 10.0.0.0/8, not '" + spec + "'");
      }
      int bits = bytes.length * 8;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(spec.substring(slash + 1));
        } catch (NumberFormatException e) {
          bits = -1;
        }
        if (bits < 0 || bits > bytes.length * 8) {
          throw new IllegalArgumentException("the prefix length of the trusted proxy '" + spec
              + "' is 0 to " + bytes.length * 8);
        }
      }
      return new Range(bytes, bits);
    }

    boolean contains(byte[] address) {
      if (address.length != network.length) {
        return false;
      }
      for (int bit = 0; bit < bits; bit++) {
        int mask = 0x80 >>> (bit % 8);
        if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
          return false;
        }
      }
      return true;
    }
  }
}
