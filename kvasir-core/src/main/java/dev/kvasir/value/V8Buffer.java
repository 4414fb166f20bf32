package dev.kvasir.value;

import java.util.Arrays;

/** The growable output of {@link V8Writer}, with V8's primitive encodings. */
final class V8Buffer {
  private byte[] buf = new byte[64];
  private int len;

  int size() {
    return len;
  }

  private void ensure(int extra) {
    if (buf.length - len < extra) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }
  }

  void put(int b) {
    ensure(1);
    buf[len++] = (byte) b;
  }

  void put(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
  }

  /** Unsigned LEB128. */
  void putVarint(long value) {
    ensure(10);
    while ((value & ~0x7fL) != 0) {
      buf[len++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    buf[len++] = (byte) value;
  }

  static int varintSize(long value) {
    int n = 1;
    while ((value & ~0x7fL) != 0) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  /** 8 bytes little-endian; NaN written as the canonical quiet NaN. */
  void putDouble(double d) {
    long bits = Double.doubleToLongBits(d);
    ensure(8);
    for (int i = 0; i < 8; i++) {
      buf[len++] = (byte) (bits >>> (8 * i));
    }
  }

  /** Each UTF-16 unit of {@code s}, all ≤ 0xFF, as one byte. */
  void putLatin1(String s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) s.charAt(i);
    }
  }

  void putUtf16le(String s) {
    int n = s.length();
    ensure(2 * n);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      buf[len++] = (byte) c;
      buf[len++] = (byte) (c >>> 8);
    }
  }

  byte[] toArray() {
    return Arrays.copyOf(buf, len);
  }
}
