package dev.kvasir.connect;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.spi.Engines;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * An HTTP proxy that {@code https://} connections go through, as a {@code CONNECT} tunnel
 * (docs/kv-connect.md §14): a company's outbound proxy between a Java service and a hosted
 * server. Taken, first found first, from the option {@code remote.proxy}, the JVM's {@code
 * https.proxyHost}/{@code https.proxyPort} with {@code http.nonProxyHosts}, and the environment's
 * {@code HTTPS_PROXY} with {@code NO_PROXY}, as curl and Deno read them. Plain {@code http://}
 * servers are reached directly.
 *
 * @param user with {@code password}, sent as the proxy's basic authentication; null for none
 */
public record RemoteProxy(String host, int port, String user, String password) {
  /** The option's value that turns proxies off, whatever the JVM and the environment say. */
  static final String NONE = "none";

  /** How it names itself in messages, without the password. */
  @Override
  public String toString() {
    return "http://" + (user == null ? "" : user + ":***@") + host + ":" + port;
  }

  /**
   * The proxy for {@code server}, if one applies.
   *
   * @param option the value of {@code remote.proxy}, if given
   * @throws KvArgumentException for a proxy setting that is not an http:// URL with a port
   */
  static Optional<RemoteProxy> forServer(URI server, Optional<String> option,
      Properties jvm, Map<String, String> environment) {
    if (!"https".equalsIgnoreCase(server.getScheme())) {
      return Optional.empty();
    }
    String host = server.getHost();
    if (option.isPresent()) {
      return option.get().equals(NONE) ? Optional.empty()
          : Optional.of(parse(option.get(), "remote.proxy"));
    }
    String jvmHost = jvm.getProperty("https.proxyHost");
    if (jvmHost != null && !jvmHost.isBlank()) {
      if (matchesJvmExclusion(host, jvm.getProperty("http.nonProxyHosts", ""))) {
        return Optional.empty();
      }
      String port = jvm.getProperty("https.proxyPort", "443");
      try {
        return Optional.of(new RemoteProxy(jvmHost.strip(), Integer.parseInt(port.strip()), null,
            null));
      } catch (NumberFormatException e) {
        throw new KvArgumentException("https.proxyPort is not a port: " + port);
      }
    }
    String variable = first(environment, "https_proxy", "HTTPS_PROXY");
    if (variable == null || variable.isBlank()) {
      return Optional.empty();
    }
    String noProxy = first(environment, "no_proxy", "NO_PROXY");
    if (matchesNoProxy(host, noProxy == null ? "" : noProxy)) {
      return Optional.empty();
    }
    return Optional.of(parse(variable, "HTTPS_PROXY"));
  }

  private static String first(Map<String, String> environment, String... names) {
    for (String name : names) {
      String value = environment.get(name);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /** {@code http://[user:password@]host:port}, or {@code host:port} as curl also takes it. */
  private static RemoteProxy parse(String text, String setting) {
    String url = text.strip();
    URI uri;
    try {
      uri = URI.create(url.contains("://") ? url : "http://" + url);
    } catch (IllegalArgumentException e) {
      throw new KvArgumentException(setting + " is not a proxy URL: " + url);
    }
    if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null
        || uri.getPort() > 65_535) {
      throw new KvArgumentException(setting + " must be an http:// proxy with a host, such as"
          + " http://proxy.internal:3128; got " + Engines.redact(url));
    }
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      user = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
      password = parts.length > 1 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : "";
    }
    return new RemoteProxy(uri.getHost(), port, user, password);
  }

  /**
   * {@code NO_PROXY}: hosts or domains separated by commas; {@code example.com} and {@code
   * .example.com} both cover the domain's hosts, {@code *} every host; a port is ignored.
   */
  static boolean matchesNoProxy(String host, String noProxy) {
    String h = host.toLowerCase(Locale.ROOT);
    for (String entry : noProxy.split(",")) {
      String e = entry.strip().toLowerCase(Locale.ROOT);
      if (e.isEmpty()) {
        continue;
      }
      if (e.equals("*")) {
        return true;
      }
      int colon = e.lastIndexOf(':');
      if (colon > 0 && e.indexOf(':') == colon) { // host:port, not an IPv6 address
        e = e.substring(0, colon);
      }
      e = e.startsWith(".") ? e.substring(1) : e;
      if (h.equals(e) || h.endsWith("." + e)) {
        return true;
      }
    }
    return false;
  }

  /** {@code http.nonProxyHosts}: patterns separated by {@code |}, {@code *} any characters. */
  static boolean matchesJvmExclusion(String host, String patterns) {
    for (String pattern : patterns.split("\\|")) {
      String p = pattern.strip().toLowerCase(Locale.ROOT);
      if (!p.isEmpty() && host.toLowerCase(Locale.ROOT).matches(
          ("\\Q" + p + "\\E").replace("*", "\\E.*\\Q"))) {
        return true;
      }
    }
    return false;
  }
}
