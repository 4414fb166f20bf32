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
 * before it is dropped, and so is a byte order mark before the first line. A line longer than
 * {@link #MAX_LINE_BYTES} is refused as it is read, so that a file that is not NDJSON (a
 * database, an archive, one huge JSON array) ends the import with a reason instead of filling
 * the heap.
 */
final class Utf8Lines {
  /**
   * Far more than the longest line of an entry Deno can store: a value of 64 KiB written as
   * JSON, each character escaped ({@code \u0000}: six bytes for one), takes under 400 KB.
   */
  static final int MAX_LINE_BYTES = 16 << 20;

  private final InputStream in;
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean first = true;

  /** {@code in} should be buffered; it is read one byte at a time. */
  Utf8Lines(InputStream in) {
    this.in = in;
  }

  /**
   * The next line without its end, or null at the end of the input.
   *
   * @throws CharacterCodingException if the line is not UTF-8
   * @throws LineTooLong if the line is longer than {@link #MAX_LINE_BYTES}
   */
  String next() throws IOException {
    line.reset();
    int read = 0; // counted here: the stream's own size() takes its lock on every byte
    int b;
    while ((b = in.read()) != -1 && b != '\n') {
      if (read++ == MAX_LINE_BYTES) {
        throw new LineTooLong();
      }
      line.write(b);
    }
    if (b == -1 && line.size() == 0) {
      return null;
    }
    byte[] bytes = line.toByteArray();
    int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1
        : bytes.length;
    String text = decoder.decode(ByteBuffer.wrap(bytes, 0, length)).toString();
    if (first) {
      first = false;
      // A byte order mark, as some Windows tools write before UTF-8, which RFC 8259 lets a
      // parser ignore; left in, the first line failed on an invisible character.
      if (text.startsWith(TextFiles.BOM)) {
        return text.substring(1);
      }
    }
    return text;
  }

  /** A line longer than {@link #MAX_LINE_BYTES}: the input is not NDJSON of entries. */
  static final class LineTooLong extends IOException {
    private static final long serialVersionUID = 1L;

    LineTooLong() {
      super("the line is longer than " + (MAX_LINE_BYTES >> 20) + " MiB, far more than any"
          + " entry needs (is the input NDJSON as 'kvasir export' writes it)");
    }
  }
}
