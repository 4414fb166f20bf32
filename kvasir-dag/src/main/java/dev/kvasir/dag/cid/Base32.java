package dev.kvasir.dag.cid;

/** RFC 4648 base32 without padding, lower case out, either case in (multibase 'b' / 'B'). */
final class Base32 {
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

  private Base32() {}

  static String encode(byte[] bytes) {
    StringBuilder out = new StringBuilder((bytes.length * 8 + 4) / 5);
    int buffer = 0;
    int bits = 0;
    for (byte b : bytes) {
      buffer = (buffer << 8) | (b & 0xff);
      bits += 8;
      while (bits >= 5) {
        out.append(ALPHABET[(buffer >>> (bits - 5)) & 31]);
        bits -= 5;
      }
    }
    if (bits > 0) {
      out.append(ALPHABET[(buffer << (5 - bits)) & 31]);
    }
    return out.toString();
  }

  static byte[] decode(CharSequence text) {
    byte[] out = new byte[text.length() * 5 / 8];
    int buffer = 0;
    int bits = 0;
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      int v = value(text.charAt(i));
      if (v < 0) {
        throw new IllegalArgumentException("'" + text.charAt(i) + "' at position " + (i + 1)
            + " is not a base32 character (a-z, 2-7)");
      }
      buffer = (buffer << 5) | v;
      bits += 5;
      if (bits >= 8) {
        out[n++] = (byte) (buffer >>> (bits - 8));
        bits -= 8;
      }
    }
    if ((buffer & ((1 << bits) - 1)) != 0) {
      throw new IllegalArgumentException("base32 text has non-zero padding bits");
    }
    return out;
  }

  private static int value(char c) {
    if (c >= 'a' && c <= 'z') {
      return c - 'a';
    }
    if (c >= 'A' && c <= 'Z') {
      return c - 'A';
    }
    if (c >= '2' && c <= '7') {
      return c - '2' + 26;
    }
    return -1;
  }
}
