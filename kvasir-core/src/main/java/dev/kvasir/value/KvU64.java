package dev.kvasir.value;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvDecodeException;
import java.math.BigInteger;

/**
 * Deno's {@code Deno.KvU64}: an unsigned 64-bit integer that atomic {@code sum} adds with
 * wrap-around and {@code min}/{@code max} compare unsigned. Stored as 8 little-endian bytes
 * when it is a whole value (docs/values.md §1). Immutable.
 */
public final class KvU64 implements Comparable<KvU64> {
  public static final KvU64 ZERO = new KvU64(0);
  /** 2^64 − 1. */
  public static final KvU64 MAX = new KvU64(-1L);

  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  private final long bits;

  private KvU64(long bits) {
    this.bits = bits;
  }

  /**
   * A non-negative value.
   *
   * @throws KvArgumentException if {@code value} is negative
   */
  public static KvU64 of(long value) {
    if (value < 0) {
      throw new KvArgumentException("KvU64 must be a positive integer: " + value
          + " (use ofUnsignedBits for values of 2^63 and more)");
    }
    return new KvU64(value);
  }

  /** The value whose unsigned 64-bit two's-complement bits are {@code bits}. */
  public static KvU64 ofUnsignedBits(long bits) {
    return new KvU64(bits);
  }

  /**
   * A value in {@code [0, 2^64)}.
   *
   * @throws KvArgumentException outside that range
   */
  public static KvU64 of(BigInteger value) {
    if (value.signum() < 0) {
      throw new KvArgumentException("KvU64 must be a positive integer: " + value);
    }
    if (value.compareTo(TWO_TO_64) >= 0) {
      throw new KvArgumentException(
          "KvU64 must fit in a 64-bit unsigned integer: " + value);
    }
    return new KvU64(value.longValue());
  }

  /** From 8 little-endian bytes, the stored form (value encoding 2). */
  public static KvU64 fromLittleEndian(byte[] bytes) {
    if (bytes.length != 8) {
      throw new KvDecodeException("KvU64 value must be 8 bytes, got " + bytes.length);
    }
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = v << 8 | (bytes[i] & 0xff);
    }
    return new KvU64(v);
  }

  /** The 8 little-endian bytes of the stored form. */
  public byte[] toLittleEndian() {
    byte[] out = new byte[8];
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (bits >>> (8 * i));
    }
    return out;
  }

  /** The raw 64 bits; negative as a Java {@code long} for values of 2^63 and more. */
  public long unsignedBits() {
    return bits;
  }

  public BigInteger toBigInteger() {
    BigInteger v = BigInteger.valueOf(bits);
    return bits < 0 ? v.add(TWO_TO_64) : v;
  }

  /** {@code this + other} modulo 2^64, as Deno's {@code sum}. */
  public KvU64 sum(KvU64 other) {
    return new KvU64(bits + other.bits);
  }

  /** The smaller, unsigned. */
  public KvU64 min(KvU64 other) {
    return compareTo(other) <= 0 ? this : other;
  }

  /** The larger, unsigned. */
  public KvU64 max(KvU64 other) {
    return compareTo(other) >= 0 ? this : other;
  }

  @Override
  public int compareTo(KvU64 other) {
    return Long.compareUnsigned(bits, other.bits);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KvU64 other && bits == other.bits;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(bits);
  }

  /** The decimal value, as Deno prints {@code KvU64.value}. */
  @Override
  public String toString() {
    return Long.toUnsignedString(bits);
  }
}
