package dev.kvasir.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the server's handlers share: reading a bearer token, answering in plain text, and moving
 * an answer off Jetty's selector.
 */
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
    return send(response, callback, status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  /** Answers with {@code status} and {@code body} of {@code contentType}; always true. */
  static boolean send(Response response, Callback callback, int status, String contentType,
      byte[] body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  /**
   * Makes the answer on a thread of the server's pool, not on the selector Jetty may call a
   * handler on (docs/kv-connect.md §13). A pool that refuses the task is stopping: then the
   * caller gets 503 and {@code stopping} as the body, as KV Connect's requests do, not the 500
   * Jetty would make of the exception.
   *
   * @return true: the request is handled either way
   */
  static boolean onPool(Request request, Response response, Callback callback, String stopping,
      Runnable answer) {
    try {
      request.getComponents().getExecutor().execute(answer);
      return true;
    } catch (RejectedExecutionException e) {
      return send(response, callback, 503, TEXT, stopping);
    }
  }
}
