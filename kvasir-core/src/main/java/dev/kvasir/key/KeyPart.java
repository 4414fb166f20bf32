package dev.kvasir.key;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvTypeException;
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
   * The part for a Java value (docs/keys.md §8): {@code String}, {@code byte[]}, {@code
   * BigInteger}, {@code Boolean}, a number ({@code Double}, {@code Float}, {@code Integer},
   * {@code Long}, {@code Short}, {@code Byte}), or, as a string part, a {@code UUID}, an enum
   * constant (its name), an {@code Instant} or a {@code LocalDate} (fixed-width ISO 8601, so
   * that their order is the parts' order). A {@code KeyPart} is returned as it is.
   *
   * @throws KvTypeException for any other type, for null, for a {@code Long} that a double
   *     cannot hold exactly, and for an instant outside the years 0 to 9999
   * @throws KvLimitException for a bigint of more than 255 magnitude bytes
   */
  static KeyPart of(Object value) {
    return JavaKeyParts.part(value);
  }

  /**
   * This part as {@code type}: the Java types {@link #of} takes ({@code String}, {@code UUID},
   * enums, {@code Instant} and {@code LocalDate} from a string part; {@code long}, {@code
   * int}, {@code double} from a number part holding one exactly; {@code BigInteger}, also from
   * an integral number; {@code byte[]}; {@code boolean}), or a {@code KeyPart} type.
   *
   * @throws KvTypeException if this part does not hold a {@code type}
   */
  default <T> T as(Class<T> type) {
    return JavaKeyParts.as(this, type);
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
        throw new KvLimitException(
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
