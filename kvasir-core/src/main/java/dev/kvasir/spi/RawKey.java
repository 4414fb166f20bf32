package dev.kvasir.spi;

import dev.kvasir.base.Hex;
import java.util.Arrays;
import java.util.Objects;

/**
 * An encoded key or range bound as engines see it: plain bytes, compared unsigned, which is the
 * order of the typed keys they encode (docs/keys.md). Engines never see a typed key.
 * Immutable.
 */
public final class RawKey implements Comparable<RawKey> {
  /** No bytes: at or below every key, the start of a range over all of them. */
  public static final RawKey BELOW_ALL = new RawKey(new byte[0]);

  /**
   * The byte {@code FF}: above every key, the end of a range over all of them. Every key part
   * begins with a type byte below it (docs/keys.md §1).
   */
  public static final RawKey ABOVE_ALL = new RawKey(new byte[] {(byte) 0xff});

  private final byte[] bytes;

  private RawKey(byte[] bytes) {
    this.bytes = bytes;
  }

  /** The bytes, copied. */
  public static RawKey of(byte[] bytes) {
    return new RawKey(bytes.clone());
  }

  /**
   * The bytes handed over without a copy, for an array that nothing changes afterwards, such as
   * one fresh from a driver or a decoder. The caller must not change it either.
   */
  public static RawKey wrap(byte[] bytes) {
    return new RawKey(Objects.requireNonNull(bytes, "bytes"));
  }

  /** These bytes followed by one more byte, e.g. {@code k‖00} for the end of a get range. */
  public RawKey append(int suffix) {
    byte[] out = Arrays.copyOf(bytes, bytes.length + 1);
    out[bytes.length] = (byte) suffix;
    return new RawKey(out);
  }

  /** The bytes (a copy). */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * The bytes themselves, not a copy, for handing to a driver or an encoder that only reads
   * them (a JDBC {@code setBytes}). Never change them: this key and everything sharing it would
   * change too.
   */
  public byte[] sharedBytes() {
    return bytes;
  }

  public int length() {
    return bytes.length;
  }

  /** Whether this key begins with the bytes of {@code prefix}. */
  public boolean startsWith(RawKey prefix) {
    return bytes.length >= prefix.bytes.length
        && Arrays.equals(bytes, 0, prefix.bytes.length, prefix.bytes, 0, prefix.bytes.length);
  }

  @Override
  public int compareTo(RawKey other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RawKey other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** Lowercase hex of the bytes. */
  @Override
  public String toString() {
    return Hex.encode(bytes);
  }
}
