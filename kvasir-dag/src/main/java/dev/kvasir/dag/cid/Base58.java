package dev.kvasir.dag.cid;

import java.math.BigInteger;

/** Bitcoin base58 (multibase 'z' and the bare "Qm…" form of CIDv0). */
final class Base58 {
  private static final String ALPHABET =
      "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  private static final BigInteger BASE = BigInteger.valueOf(58);

  private Base58() {}

  static String encode(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    BigInteger n = new BigInteger(1, bytes);
    while (n.signum() > 0) {
      BigInteger[] qr = n.divideAndRemainder(BASE);
      out.append(ALPHABET.charAt(qr[1].intValue()));
      n = qr[0];
    }
    for (int i = 0; i < bytes.length && bytes[i] == 0; i++) {
      out.append('1');
    }
    return out.reverse().toString();
  }

  static byte[] decode(CharSequence text) {
    BigInteger n = BigInteger.ZERO;
    int zeros = 0;
    boolean leading = true;
    for (int i = 0; i < text.length(); i++) {
      int v = ALPHABET.indexOf(text.charAt(i));
      if (v < 0) {
        throw new IllegalArgumentException("'" + text.charAt(i) + "' at position " + (i + 1)
            + " is not a base58btc character");
      }
      if (leading && v == 0) {
        zeros++;
      } else {
        leading = false;
      }
      n = n.multiply(BASE).add(BigInteger.valueOf(v));
    }
    byte[] magnitude = n.signum() == 0 ? new byte[0] : n.toByteArray();
    int skip = magnitude.length > 0 && magnitude[0] == 0 ? 1 : 0;
    byte[] out = new byte[zeros + magnitude.length - skip];
    System.arraycopy(magnitude, skip, out, zeros, magnitude.length - skip);
    return out;
  }
}
