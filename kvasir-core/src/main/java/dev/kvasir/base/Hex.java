package dev.kvasir.base;

/** Lowercase hexadecimal, as Deno prints versionstamps and as the vectors store bytes. */
public final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  public static String encode(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
    }
    return new String(out);
  }

  /**
   * Parses hex digits of either case.
   *
   * @throws KvArgumentException on an odd length or a non-hex character
   */
  public static byte[] decode(CharSequence hex) {
    if (hex.length() % 2 != 0) {
      throw new KvArgumentException("odd number of hex digits: " + hex.length());
    }
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) (digit(hex, 2 * i) << 4 | digit(hex, 2 * i + 1));
    }
    return out;
  }

  private static int digit(CharSequence hex, int index) {
    int d = Character.digit(hex.charAt(index), 16);
    if (d < 0) {
      throw new KvArgumentException(
          "not a hex digit at index " + index + ": '" + hex.charAt(index) + "'");
    }
    return d;
  }
}
