package dev.kvasir.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** What the server's handlers share: reading a bearer token and answering in plain text. */
final class Replies {
  static final String TEXT = "text/plain; charset=utf-8";

  private Replies() {}

  /** The token of an {@code Authorization: Bearer …} header, or null without one. */
  static byte[] bearer(Request request) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null || header.length() < 7
        || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
  }

  /** Answers with {@code status} and {@code body} of {@code contentType}; always true. */
  static boolean send(Response response, Callback callback, int status, String contentType,
      String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }
}
