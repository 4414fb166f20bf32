package dev.kvasir.key;

import dev.kvasir.base.KvDecodeException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Deno KV's order-preserving key encoding, a subset of the FoundationDB tuple layer
 * (docs/keys.md). Parts are concatenated with no length prefix and no terminator.
 *
 * <p>The decoder is stricter than Deno's: it also rejects non-minimal integer forms and
 * non-canonical NaNs, which Deno never writes, so that {@code encode(decode(b))} equals
 * {@code b} for every accepted {@code b}.
 */
public final class KeyCodec {
  static final int BYTES = 0x01;
  static final int STRING = 0x02;
  static final int NEG_INT_LONG = 0x0b;
  static final int INT_ZERO = 0x14;
  static final int POS_INT_LONG = 0x1d;
  static final int DOUBLE = 0x21;
  static final int FALSE = 0x26;
  static final int TRUE = 0x27;

  private static final long SIGN_BIT = 0x8000000000000000L;
  private static final long POSITIVE_NAN = 0x7ff8000000000000L;
  private static final long NEGATIVE_NAN = 0xfff8000000000000L;
  private static final KeyPart[] NO_PARTS = {};

  private KeyCodec() {}

  /** The encoding of the parts, concatenated. */
  public static byte[] encode(KeyPart[] parts) {
    Sink out = new Sink();
    for (KeyPart part : parts) {
      encodePart(part, out);
    }
    return out.toArray();
  }

  private static void encodePart(KeyPart part, Sink out) {
    if (part instanceof KeyPart.Bytes b) {
      out.put(BYTES);
      out.putEscaped(b.value());
    } else if (part instanceof KeyPart.Str s) {
      out.put(STRING);
      out.putEscaped(s.value().getBytes(StandardCharsets.UTF_8));
    } else if (part instanceof KeyPart.BigInt i) {
      encodeBigInt(i.value(), out);
    } else if (part instanceof KeyPart.Num n) {
      // Deno: flip all bits of negatives, only the sign bit of positives (§1.4).
      long bits = Double.doubleToRawLongBits(n.value());
      out.put(DOUBLE);
      out.putLong(bits < 0 ? ~bits : bits ^ SIGN_BIT);
    } else if (part instanceof KeyPart.Bool b) {
      out.put(b.value() ? TRUE : FALSE);
    }
  }

  private static void encodeBigInt(BigInteger value, Sink out) {
    int sign = value.signum();
    if (sign == 0) {
      out.put(INT_ZERO);
      return;
    }
    byte[] magnitude = minimalMagnitude(value.abs());
    int n = magnitude.length;
    if (sign > 0) {
      if (n <= 8) {
        out.put(INT_ZERO + n);
      } else {
        out.put(POS_INT_LONG);
        out.put(n);
      }
      out.put(magnitude);
    } else {
      // One's complement, and an inverted length, make longer (more negative) values sort first.
      if (n <= 8) {
        out.put(INT_ZERO - n);
      } else {
        out.put(NEG_INT_LONG);
        out.put(n ^ 0xff);
      }
      for (byte b : magnitude) {
        out.put(~b & 0xff);
      }
    }
  }

  private static byte[] minimalMagnitude(BigInteger magnitude) {
    byte[] bytes = magnitude.toByteArray();
    return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
  }

  /**
   * Decodes the parts of an encoded key.
   *
   * @throws KvDecodeException naming the byte offset and the problem
   */
  public static KeyPart[] decode(byte[] bytes) {
    return decode(bytes, 0, NO_PARTS);
  }

  /**
   * Decodes the parts from byte {@code from} on, after {@code head}: the parts that the bytes
   * before {@code from} encode, which the caller knows already (a list's prefix).
   *
   * @throws KvDecodeException naming the byte offset and the problem
   */
  public static KeyPart[] decode(byte[] bytes, int from, KeyPart[] head) {
    // Keys rarely have more than four parts, and a list's keys mostly one more than its prefix,
    // so that array is usually the result itself, not copied to size at the end.
    KeyPart[] parts = new KeyPart[head.length + (head.length == 0 ? 4 : 1)];
    System.arraycopy(head, 0, parts, 0, head.length);
    int count = head.length;
    int pos = from;
    while (pos < bytes.length) {
      int tag = bytes[pos] & 0xff;
      int start = pos++;
      if (count == parts.length) {
        parts = Arrays.copyOf(parts, count * 2);
      }
      try {
        if (tag == BYTES || tag == STRING) {
          int end = terminator(bytes, pos);
          if (tag == STRING && !containsZero(bytes, pos, end)) {
            parts[count++] = new KeyPart.Str(Utf8.decode(bytes, pos, end - pos, "string part"));
          } else {
            byte[] raw = unescape(bytes, pos, end);
            parts[count++] = tag == BYTES ? new KeyPart.Bytes(raw)
                : new KeyPart.Str(Utf8.decode(raw, 0, raw.length, "string part"));
          }
          pos = end + 1;
        } else if (tag >= NEG_INT_LONG && tag <= POS_INT_LONG) {
          pos = decodeBigInt(bytes, tag, pos, parts, count++);
        } else if (tag == DOUBLE) {
          require(bytes, pos, 8);
          parts[count++] = new KeyPart.Num(decodeDouble(readLong(bytes, pos)));
          pos += 8;
        } else if (tag == FALSE || tag == TRUE) {
          parts[count++] = new KeyPart.Bool(tag == TRUE);
        } else {
          throw new KvDecodeException(String.format("invalid type code 0x%02x", tag));
        }
      } catch (KvDecodeException e) {
        throw new KvDecodeException("malformed key at byte " + start + ": " + e.getMessage());
      }
    }
    if (count == parts.length) {
      return parts;
    }
    KeyPart[] exact = new KeyPart[count];
    System.arraycopy(parts, 0, exact, 0, count);
    return exact;
  }

  /** Decodes the big integer at {@code pos} into {@code parts[index]}; returns the next pos. */
  private static int decodeBigInt(byte[] bytes, int tag, int pos, KeyPart[] parts, int index) {
    if (tag == INT_ZERO) {
      parts[index] = new KeyPart.BigInt(BigInteger.ZERO);
      return pos;
    }
    boolean negative = tag < INT_ZERO;
    int n;
    if (tag == POS_INT_LONG || tag == NEG_INT_LONG) {
      require(bytes, pos, 1);
      n = negative ? (bytes[pos] & 0xff) ^ 0xff : bytes[pos] & 0xff;
      pos++;
      if (n <= 8) {
        throw new KvDecodeException("non-canonical integer: long form for " + n + " bytes");
      }
    } else {
      n = Math.abs(tag - INT_ZERO);
    }
    require(bytes, pos, n);
    byte[] magnitude = Arrays.copyOfRange(bytes, pos, pos + n);
    if (negative) {
      for (int i = 0; i < n; i++) {
        magnitude[i] = (byte) ~magnitude[i];
      }
    }
    if (magnitude[0] == 0) {
      throw new KvDecodeException("non-canonical integer: leading zero byte");
    }
    BigInteger abs = new BigInteger(1, magnitude);
    parts[index] = new KeyPart.BigInt(negative ? abs.negate() : abs);
    return pos + n;
  }

  private static double decodeDouble(long encoded) {
    long bits = encoded < 0 ? encoded ^ SIGN_BIT : ~encoded;
    double value = Double.longBitsToDouble(bits);
    if (Double.isNaN(value) && bits != POSITIVE_NAN && bits != NEGATIVE_NAN) {
      throw new KvDecodeException("non-canonical NaN");
    }
    return value;
  }

  private static int terminator(byte[] bytes, int pos) {
    for (int i = pos; i < bytes.length; i++) {
      if (bytes[i] == 0 && (i + 1 == bytes.length || bytes[i + 1] != (byte) 0xff)) {
        return i;
      }
      if (bytes[i] == 0) {
        i++; // skip the escaped 00 FF pair
      }
    }
    throw new KvDecodeException("unterminated byte string");
  }

  private static boolean containsZero(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private static byte[] unescape(byte[] bytes, int from, int to) {
    byte[] out = new byte[to - from];
    int n = 0;
    for (int i = from; i < to; i++) {
      out[n++] = bytes[i];
      if (bytes[i] == 0) {
        i++; // the FF after an escaped zero
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  private static void require(byte[] bytes, int pos, int count) {
    if (bytes.length - pos < count) {
      throw new KvDecodeException(
          "truncated: needs " + count + " more bytes, has " + (bytes.length - pos));
    }
  }

  private static long readLong(byte[] bytes, int pos) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = v << 8 | (bytes[pos + i] & 0xff);
    }
    return v;
  }

  /** A growable byte array; keys are small, so no pooling. */
  private static final class Sink {
    private byte[] buf = new byte[64];
    private int len;

    void put(int b) {
      if (len == buf.length) {
        buf = Arrays.copyOf(buf, len * 2);
      }
      buf[len++] = (byte) b;
    }

    void put(byte[] bytes) {
      for (byte b : bytes) {
        put(b);
      }
    }

    void putEscaped(byte[] bytes) {
      for (byte b : bytes) {
        put(b);
        if (b == 0) {
          put(0xff);
        }
      }
      put(0);
    }

    void putLong(long v) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        put((int) (v >>> shift));
      }
    }

    byte[] toArray() {
      return Arrays.copyOf(buf, len);
    }
  }
}
