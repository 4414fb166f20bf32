package dev.kvasir.base;


/**
 * The 10-byte version of a commit: the 8-byte big-endian commit version followed by two bytes
 * that are zero locally (docs/sqlite.md §4). Every write of one commit carries the same
 * versionstamp; later commits have greater ones. Printed and parsed as 20 hex digits.
 * Immutable; ordered by unsigned bytes.
 */
public final class Versionstamp implements Comparable<Versionstamp> {
  /** Length in bytes. */
  public static final int LENGTH = 10;

  // Held as numbers, not a byte array: one object per entry read instead of two.
  private final long version;
  private final int suffix; // the last two bytes, 0 to 0xffff

  private Versionstamp(long version, int suffix) {
    this.version = version;
    this.suffix = suffix;
  }

  /**
   * A versionstamp of exactly 10 bytes.
   *
   * @throws KvArgumentException for any other length
   */
  public static Versionstamp of(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new KvArgumentException(
          "versionstamp must be 10 bytes, got " + bytes.length);
    }
    long version = 0;
    for (int i = 0; i < 8; i++) {
      version = version << 8 | (bytes[i] & 0xff);
    }
    return new Versionstamp(version, (bytes[8] & 0xff) << 8 | (bytes[9] & 0xff));
  }

  /** The versionstamp of a commit version, as Deno's SQLite backend forms it. */
  public static Versionstamp ofVersion(long version) {
    return new Versionstamp(version, 0);
  }

  /**
   * Parses 20 hex digits (either case), Deno's string form.
   *
   * @throws KvArgumentException for anything else
   */
  public static Versionstamp parse(String hex) {
    if (hex.length() != 2 * LENGTH) {
      throw new KvArgumentException(
          "versionstamp must be 20 hex digits, got " + hex.length() + " characters: " + hex);
    }
    try {
      return of(Hex.decode(hex));
    } catch (KvArgumentException e) {
      throw new KvArgumentException("invalid versionstamp '" + hex + "': " + e.getMessage());
    }
  }

  /** The commit version: the first 8 bytes, big-endian. */
  public long version() {
    return version;
  }

  /** The 10 bytes (a fresh array). */
  public byte[] toBytes() {
    byte[] bytes = new byte[LENGTH];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (version >>> (56 - 8 * i));
    }
    bytes[8] = (byte) (suffix >>> 8);
    bytes[9] = (byte) suffix;
    return bytes;
  }

  /** Unsigned byte order, which is numeric order of the version, then of the suffix. */
  @Override
  public int compareTo(Versionstamp other) {
    int byVersion = Long.compareUnsigned(version, other.version);
    return byVersion != 0 ? byVersion : Integer.compare(suffix, other.suffix);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Versionstamp other && version == other.version && suffix == other.suffix;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(version) * 31 + suffix;
  }

  /** 20 lowercase hex digits, e.g. {@code 00000000000000060000}. */
  @Override
  public String toString() {
    return Hex.encode(toBytes());
  }
}
