package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Which reads the connection acknowledges at once: frames as a client sends them, whole and cut
 * at every byte.
 */
class AckTrackerTest {
  private static final byte[] PREFACE =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int DATA = 0x0;
  private static final int HEADERS = 0x1;
  private static final int RST_STREAM = 0x3;
  private static final int SETTINGS = 0x4;
  private static final int PING = 0x6;
  private static final int WINDOW_UPDATE = 0x8;
  private static final int CONTINUATION = 0x9;
  private static final int END_STREAM = 0x1;
  private static final int END_HEADERS = 0x4;

  private final AckTracker acks = new AckTracker();

  private static byte[] frame(int type, int flags, int stream, int length) {
    byte[] f = new byte[9 + length];
    f[0] = (byte) (length >>> 16);
    f[1] = (byte) (length >>> 8);
    f[2] = (byte) length;
    f[3] = (byte) type;
    f[4] = (byte) flags;
    f[5] = (byte) (stream >>> 24);
    f[6] = (byte) (stream >>> 16);
    f[7] = (byte) (stream >>> 8);
    f[8] = (byte) stream;
    for (int i = 9; i < f.length; i++) {
      f[i] = (byte) (i * 31); // payload bytes that look like anything, zeros included
    }
    return f;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Reads {@code bytes} as the endpoint does: appended behind what the buffer holds. */
  private boolean read(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.allocate(7 + bytes.length);
    buffer.put(new byte[7]).put(bytes).flip(); // older bytes stay in front
    return acks.needsAckNow(buffer, bytes.length);
  }

  @Test
  void wholeRequests_waitForTheirAnswers() {
    read(concat(PREFACE, frame(SETTINGS, 0, 0, 12)));
    assertThat(read(frame(HEADERS, END_HEADERS | END_STREAM, 1, 40))).isFalse();
    assertThat(read(concat(frame(HEADERS, END_HEADERS, 3, 60), frame(DATA, END_STREAM, 3,
        900), frame(HEADERS, END_HEADERS | END_STREAM, 5, 30)))).isFalse();
  }

  @Test
  void framesNoAnswerFollows_needAnAckNow() {
    assertThat(read(concat(PREFACE, frame(SETTINGS, 0, 0, 12)))).isTrue();
    assertThat(read(frame(WINDOW_UPDATE, 0, 0, 4))).isTrue();
    assertThat(read(frame(PING, 0, 0, 8))).isTrue();
    assertThat(read(frame(SETTINGS, 0x1, 0, 0))).as("a settings ack").isTrue();
    assertThat(read(concat(frame(HEADERS, END_HEADERS | END_STREAM, 1, 40),
        frame(WINDOW_UPDATE, 0, 0, 4)))).as("a request and a window update").isTrue();
    assertThat(read(frame(HEADERS, END_HEADERS | END_STREAM, 3, 40))).isFalse();
  }

  @Test
  void headersBeforeTheirBody_needAnAckNow_untilTheBodyEnds() {
    read(PREFACE);
    assertThat(read(frame(HEADERS, END_HEADERS, 1, 60))).isTrue();
    assertThat(read(frame(DATA, 0, 1, 1200))).isTrue();
    assertThat(read(frame(DATA, END_STREAM, 1, 300))).isFalse();
  }

  @Test
  void bytesCutAtAnyPoint_needAnAckNow_exceptAtTheEndOfWholeRequests() {
    byte[] request = concat(frame(HEADERS, END_HEADERS, 1, 50), frame(DATA, END_STREAM, 1, 2000));
    byte[] all = concat(PREFACE, request, frame(WINDOW_UPDATE, 0, 0, 4), request);
    int firstRequestEnds = PREFACE.length + request.length;
    for (int i = 1; i <= all.length; i++) {
      // The last byte of the preface or of a request completes something the answer acknowledges;
      // every other byte leaves a frame or a request unfinished, or belongs to a window update.
      boolean waits = i == PREFACE.length || i == firstRequestEnds || i == all.length;
      assertThat(read(new byte[] {all[i - 1]})).as("after byte %d of %d", i, all.length)
          .isEqualTo(!waits);
    }
  }

  @Test
  void headersAwaitingContinuation_needAnAckNow() {
    read(PREFACE);
    assertThat(read(frame(HEADERS, END_STREAM, 1, 30))).isTrue();
    assertThat(read(frame(CONTINUATION, END_HEADERS, 1, 30))).isFalse();
  }

  @Test
  void aResetStream_isNoLongerArriving() {
    read(PREFACE);
    assertThat(read(frame(HEADERS, END_HEADERS, 5, 30))).isTrue();
    assertThat(read(frame(RST_STREAM, 0, 5, 4))).as("the reset itself").isTrue();
    assertThat(read(frame(HEADERS, END_HEADERS | END_STREAM, 7, 30))).isFalse();
  }

  @Test
  void aWindowUpdateForAStream_doesNotEndItsRequest() {
    read(PREFACE);
    read(frame(HEADERS, END_HEADERS, 9, 30));
    read(frame(WINDOW_UPDATE, 0, 9, 4));
    assertThat(read(frame(HEADERS, END_HEADERS | END_STREAM, 11, 30))).as("9 still arriving")
        .isTrue();
    assertThat(read(frame(DATA, END_STREAM, 9, 10))).isFalse();
  }

  @Test
  void trailers_endTheRequest() {
    read(PREFACE);
    read(frame(HEADERS, END_HEADERS, 7, 30));
    read(frame(DATA, 0, 7, 100));
    assertThat(read(frame(HEADERS, END_HEADERS | END_STREAM, 7, 10))).isFalse();
  }

  @Test
  void withoutThePreface_everyReadNeedsAnAckNow() {
    byte[] tls = {0x16, 0x03, 0x01, 0x02, 0x00};
    assertThat(read(tls)).isTrue();
    assertThat(read(concat(PREFACE, frame(HEADERS, END_HEADERS | END_STREAM, 1, 10)))).isTrue();
  }

  @Test
  void tooManyOpenStreams_stopFollowing() {
    read(PREFACE);
    for (int s = 1; s <= 2 * AckTracker.MAX_OPEN + 1; s += 2) {
      read(frame(HEADERS, END_HEADERS, s, 10));
    }
    assertThat(read(frame(DATA, END_STREAM, 1, 4))).as("no longer followed").isTrue();
  }
}
