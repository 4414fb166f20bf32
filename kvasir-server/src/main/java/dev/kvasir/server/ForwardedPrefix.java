package dev.kvasir.server;

import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;

/**
 * The path under which a reverse proxy publishes this server, as a trusted proxy names it in
 * {@code X-Forwarded-Prefix} (docs/operations.md §6). A proxy that serves the server at {@code
 * https://host/kv} and strips {@code /kv} must see clients sent to {@code /kv/v2}; the metadata
 * answer's usual {@code /v2} would send them to that host's own {@code /v2}.
 */
final class ForwardedPrefix {
  static final String HEADER = "X-Forwarded-Prefix";
  /** Path segments of URL characters that need no escaping in a JSON string. */
  private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9._~%!$&'()*+,;=:@-]+)+/?");

  private ForwardedPrefix() {}

  /**
   * The prefix {@code request} came through, without a trailing slash; empty when it came from
   * no trusted proxy, or with no prefix, or one that is not a plain path (ignored).
   */
  static String of(Request request, ClientAddress proxies) {
    if (!proxies.trusts(Request.getRemoteAddr(request))) {
      return "";
    }
    String header = request.getHeaders().get(HEADER);
    if (header == null) {
      return "";
    }
    String prefix = header.split(",", 2)[0].strip(); // chained proxies: the outermost's
    if (!PATH.matcher(prefix).matches() || prefix.contains("/./") || prefix.contains("/../")
        || prefix.endsWith("/.") || prefix.endsWith("/..")) {
      return "";
    }
    return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
  }
}
