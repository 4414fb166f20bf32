package dev.kvasir.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Lines of a byte stream, each decoded as strict UTF-8 on its own, so that input that is not
 * UTF-8 is reported at its own line (a reader decoding ahead in blocks would report it at an
 * earlier one) instead of being turned into U+FFFD. Lines end with {@code \n}; a {@code \r}
 * before it is dropped.
 */
final class Utf8Lines {
  private final InputStream in;
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  /** {@code in} should be buffered; it is read one byte at a time. */
  Utf8Lines(InputStream in) {
    this.in = in;
  }

  /**
   * The next line without its end, or null at the end of the input.
   *
   * @throws CharacterCodingException if the line is not UTF-8
   */
  String next() throws IOException {
    line.reset();
    int b;
    while ((b = in.read()) != -1 && b != '\n') {
      line.write(b);
    }
    if (b == -1 && line.size() == 0) {
      return null;
    }
    byte[] bytes = line.toByteArray();
    int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1
        : bytes.length;
    return decoder.decode(ByteBuffer.wrap(bytes, 0, length)).toString();
  }
}
