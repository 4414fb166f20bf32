package dev.kvasir;

import dev.kvasir.key.Hex;
import java.util.Arrays;

/**
 * The 10-byte version of a commit: the 8-byte big-endian commit version followed by two bytes
 * that are zero locally (reference/denokv.md §3.4). Every write of one commit carries the same
 * versionstamp; later commits have greater ones. Printed and parsed as 20 hex digits.
 * Immutable; ordered by unsigned bytes.
 */
public final class Versionstamp implements Comparable<Versionstamp> {
  /** Length in bytes. */
  public static final int LENGTH = 10;

  private final byte[] bytes;

  private Versionstamp(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * A versionstamp of exactly 10 bytes (copied).
   *
   * @throws IllegalArgumentException for any other length
   */
  public static Versionstamp of(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException(
          "versionstamp must be 10 bytes, got " + bytes.length);
    }
    return new Versionstamp(bytes.clone());
  }

  /** The versionstamp of a commit version, as Deno's SQLite backend forms it. */
  public static Versionstamp ofVersion(long version) {
    byte[] bytes = new byte[LENGTH];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (version >>> (56 - 8 * i));
    }
    return new Versionstamp(bytes);
  }

  /**
   * Parses 20 hex digits (either case), Deno's string form.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static Versionstamp parse(String hex) {
    if (hex.length() != 2 * LENGTH) {
      throw new IllegalArgumentException(
          "versionstamp must be 20 hex digits, got " + hex.length() + " characters: " + hex);
    }
    try {
      return new Versionstamp(Hex.decode(hex));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid versionstamp '" + hex + "': " + e.getMessage());
    }
  }

  /** The commit version: the first 8 bytes, big-endian. */
  public long version() {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = v << 8 | (bytes[i] & 0xff);
    }
    return v;
  }

  /** The 10 bytes (a copy). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  @Override
  public int compareTo(Versionstamp other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Versionstamp other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** 20 lowercase hex digits, e.g. {@code 00000000000000060000}. */
  @Override
  public String toString() {
    return Hex.encode(bytes);
  }
}
