package dev.kvasir.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Follows the HTTP/2 frames one connection receives, to tell whether what a read brought needs
 * acknowledging at once or can wait for the answer to carry the acknowledgement (docs/kv-connect.md
 * §12). It can wait only if the read held nothing but whole requests. Anything else needs it at
 * once: a request still arriving (a stream whose headers came without END_STREAM, headers
 * awaiting their CONTINUATION, a frame cut between reads), and any frame that no answer follows
 * (window updates, settings, pings, resets, priorities). A connection that does not start with
 * the HTTP/2 preface (TLS, whose bytes are encrypted here, or HTTP/1.1) cannot be followed, and
 * every read needs it at once, as on a connection whose open streams exceed {@link #MAX_OPEN}.
 * Not thread-safe: one reader at a time, as Jetty fills an endpoint.
 */
final class AckTracker {
  private static final byte[] PREFACE =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int FRAME_HEADER = 9;
  private static final int DATA = 0x0;
  private static final int HEADERS = 0x1;
  private static final int RST_STREAM = 0x3;
  private static final int CONTINUATION = 0x9;
  private static final int END_STREAM = 0x1;
  private static final int END_HEADERS = 0x4;
  /** More streams left open than this and the connection is no longer followed. */
  static final int MAX_OPEN = 1024;

  private int prefaceMatched;
  private boolean unfollowed;
  private final byte[] header = new byte[FRAME_HEADER];
  private int headerBytes;
  private long payloadLeft;
  private boolean awaitingContinuation;
  private final Set<Integer> open = new HashSet<>();
  /** Whether the frame being read is one that no answer follows. */
  private boolean frameAnswerless;
  /** Whether the current read held a byte of such a frame. */
  private boolean answerless;

  /**
   * Takes the {@code count} bytes just read, which end at {@code buffer}'s limit, and answers
   * whether the client needs them acknowledged at once.
   */
  boolean needsAckNow(ByteBuffer buffer, int count) {
    answerless = false;
    int end = buffer.limit();
    for (int i = end - count; i < end && !unfollowed; ) {
      i = next(buffer, i, end);
    }
    return unfollowed || answerless || prefaceMatched < PREFACE.length || headerBytes > 0
        || payloadLeft > 0 || awaitingContinuation || !open.isEmpty();
  }

  /** Consumes bytes from {@code i}; returns where it stopped. */
  private int next(ByteBuffer buffer, int i, int end) {
    if (prefaceMatched < PREFACE.length) {
      if (buffer.get(i) != PREFACE[prefaceMatched]) {
        unfollowed = true;
        open.clear();
        return end;
      }
      prefaceMatched++;
      return i + 1;
    }
    if (payloadLeft > 0) {
      answerless |= frameAnswerless;
      int skip = (int) Math.min(payloadLeft, end - i);
      payloadLeft -= skip;
      return i + skip;
    }
    header[headerBytes++] = buffer.get(i);
    if (headerBytes == FRAME_HEADER) {
      headerBytes = 0;
      frame();
    }
    return i + 1;
  }

  /** A frame's header is complete: note what it does to the requests, then skip its payload. */
  private void frame() {
    payloadLeft = ((header[0] & 0xffL) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
    int type = header[3] & 0xff;
    int flags = header[4] & 0xff;
    int stream = ((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16)
        | ((header[7] & 0xff) << 8) | (header[8] & 0xff);
    // Settings, pings, window updates, resets, priorities: no answer acknowledges them.
    frameAnswerless = type != HEADERS && type != CONTINUATION && type != DATA;
    answerless |= frameAnswerless;
    switch (type) {
      case HEADERS -> {
        awaitingContinuation = (flags & END_HEADERS) == 0;
        ended(stream, (flags & END_STREAM) != 0); // a request's headers, or its trailers
      }
      case CONTINUATION -> awaitingContinuation = (flags & END_HEADERS) == 0;
      case DATA -> ended(stream, (flags & END_STREAM) != 0);
      case RST_STREAM -> open.remove(stream);
      default -> { }
    }
  }

  private void ended(int stream, boolean ended) {
    if (ended) {
      open.remove(stream);
    } else if (open.add(stream) && open.size() > MAX_OPEN) {
      unfollowed = true; // streams the server reset stay here; do not let them pile up
      open.clear();
    }
  }
}
