package dev.kvasir.key;

import dev.kvasir.base.Hex;
import dev.kvasir.value.JsFormat;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * One element of a {@code KvKey}: a byte string, a string, a bigint, a number or a boolean, the
 * five types Deno KV accepts in keys. Each part is immutable and carries its value already
 * normalised the way Deno stores it, so two parts are equal exactly when their encodings are.
 */
public sealed interface KeyPart permits KeyPart.Bytes, KeyPart.Str, KeyPart.BigInt, KeyPart.Num,
    KeyPart.Bool {

  /**
   * The part for a Java value: {@code String}, {@code byte[]}, {@code BigInteger}, {@code
   * Boolean}, or a number ({@code Double}, {@code Float}, {@code Integer}, {@code Long}, {@code
   * Short}, {@code Byte}). A {@code KeyPart} is returned as it is.
   *
   * @throws IllegalArgumentException for any other type, for null, for a {@code Long} that a
   *     double cannot hold exactly, and for a bigint of more than 255 magnitude bytes
   */
  static KeyPart of(Object value) {
    if (value instanceof KeyPart part) {
      return part;
    } else if (value instanceof String s) {
      return new Str(s);
    } else if (value instanceof byte[] b) {
      return new Bytes(b);
    } else if (value instanceof BigInteger i) {
      return new BigInt(i);
    } else if (value instanceof Boolean b) {
      return new Bool(b);
    } else if (value instanceof Long l) {
      return new Num(JsFormat.exactDouble(l));
    } else if (value instanceof Double || value instanceof Float || value instanceof Integer
        || value instanceof Short || value instanceof Byte) {
      return new Num(((Number) value).doubleValue());
    }
    String type = value == null ? "null" : value.getClass().getName();
    throw new IllegalArgumentException("unsupported key part type " + type
        + " (expected String, byte[], BigInteger, Boolean or a number)");
  }

  /** A byte string (type code 0x01); reads back as {@code Uint8Array} in Deno. */
  record Bytes(byte[] value) implements KeyPart {
    public Bytes {
      value = value.clone();
    }

    /** A copy of the bytes. */
    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes other && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Bytes[" + Hex.encode(value) + "]";
    }
  }

  /**
   * A string (type code 0x02). Lone surrogates become U+FFFD, as Deno's lossy conversion to
   * UTF-8 does (docs/keys.md §2), so {@code value()} may differ from the input.
   */
  record Str(String value) implements KeyPart {
    public Str {
      value = Utf8.replaceLoneSurrogates(value);
    }
  }

  /** A bigint (type codes 0x0B–0x1D); at most 255 magnitude bytes. */
  record BigInt(BigInteger value) implements KeyPart {
    /** Deno: {@code BigUint requires more than 255 bytes} (docs/keys.md §3). */
    public static final int MAX_MAGNITUDE_BYTES = 255;

    public BigInt {
      if ((value.abs().bitLength() + 7) / 8 > MAX_MAGNITUDE_BYTES) {
        throw new IllegalArgumentException(
            "bigint key part requires more than 255 bytes to be represented");
      }
    }
  }

  /**
   * A JS number (type code 0x21). NaN is canonicalised keeping only its sign, as Deno does, and
   * −0 stays distinct from +0; equality compares the bits.
   */
  record Num(double value) implements KeyPart {
    private static final long POSITIVE_NAN = 0x7ff8000000000000L;
    private static final long NEGATIVE_NAN = 0xfff8000000000000L;

    public Num {
      if (Double.isNaN(value)) {
        boolean negative = Double.doubleToRawLongBits(value) < 0;
        value = Double.longBitsToDouble(negative ? NEGATIVE_NAN : POSITIVE_NAN);
      }
    }

    long bits() {
      return Double.doubleToRawLongBits(value);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Num other && bits() == other.bits();
    }

    @Override
    public int hashCode() {
      return Long.hashCode(bits());
    }
  }

  /** A boolean (type codes 0x26 false, 0x27 true). */
  record Bool(boolean value) implements KeyPart {}
}
