package dev.kvasir.dag.cid;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Unsigned LEB128 varints as multiformats use them: at most 9 bytes (63 bits), minimal form
 * only. Readers reject a non-minimal encoding so that one value has one byte form.
 */
public final class Varint {
  private static final int MAX_BYTES = 9;

  private Varint() {}

  public static void write(ByteArrayOutputStream out, long value) {
    if (value < 0) {
      throw new IllegalArgumentException("varint must not be negative: " + value);
    }
    while (value >= 0x80) {
      out.write((int) (value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write((int) value);
  }

  public static int size(long value) {
    int n = 1;
    while (value >= 0x80) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  /** A varint decoded from an array, and where it ended. */
  public record Read(long value, int end) {}

  public static Read read(byte[] bytes, int offset) {
    long value = 0;
    for (int i = 0; i < MAX_BYTES; i++) {
      if (offset + i >= bytes.length) {
        throw new IllegalArgumentException("truncated varint at byte " + offset);
      }
      int b = bytes[offset + i] & 0xff;
      value |= (long) (b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0) {
        if (b == 0 && i > 0) {
          throw new IllegalArgumentException("varint at byte " + offset + " is not minimal");
        }
        return new Read(value, offset + i + 1);
      }
    }
    throw new IllegalArgumentException("varint at byte " + offset + " is longer than 9 bytes");
  }

  /**
   * Reads a varint from a stream; returns -1 at a clean end of stream (before the first byte).
   */
  public static long read(InputStream in) throws IOException {
    long value = 0;
    for (int i = 0; i < MAX_BYTES; i++) {
      int b = in.read();
      if (b < 0) {
        if (i == 0) {
          return -1;
        }
        throw new EOFException("stream ended inside a varint");
      }
      value |= (long) (b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0) {
        if (b == 0 && i > 0) {
          throw new IOException("varint is not minimal");
        }
        return value;
      }
    }
    throw new IOException("varint is longer than 9 bytes");
  }
}
