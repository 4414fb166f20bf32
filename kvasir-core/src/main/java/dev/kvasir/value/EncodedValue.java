package dev.kvasir.value;

import dev.kvasir.KvU64;
import dev.kvasir.key.Hex;
import java.util.Arrays;
import java.util.Objects;

/**
 * A value as stored: its {@link ValueEncoding} and bytes. {@link #of(Object)} chooses the
 * encoding as Deno does (docs/values.md §1): raw bytes for a top-level {@code byte[]},
 * little-endian u64 for a top-level {@link KvU64}, V8 for everything else. Immutable.
 */
public final class EncodedValue {
  private final ValueEncoding encoding;
  private final byte[] bytes;

  private EncodedValue(ValueEncoding encoding, byte[] bytes) {
    this.encoding = encoding;
    this.bytes = bytes;
  }

  /** Stored bytes as read from an engine (copied). */
  public static EncodedValue of(ValueEncoding encoding, byte[] bytes) {
    return new EncodedValue(Objects.requireNonNull(encoding, "encoding"), bytes.clone());
  }

  /**
   * Stored bytes handed over without a copy, for an array that nothing changes afterwards, such
   * as one fresh from a driver or an encoder. The caller must not change it either. Saves a copy
   * of every value an engine reads.
   */
  public static EncodedValue wrap(ValueEncoding encoding, byte[] bytes) {
    return new EncodedValue(Objects.requireNonNull(encoding, "encoding"),
        Objects.requireNonNull(bytes, "bytes"));
  }

  /**
   * Encodes a Java value.
   *
   * @throws IllegalArgumentException if the value (or something inside it) is not serializable
   */
  public static EncodedValue of(Object value) {
    if (value instanceof byte[] bytes) {
      return new EncodedValue(ValueEncoding.BYTES, bytes.clone());
    }
    if (value instanceof KvU64 u) {
      return new EncodedValue(ValueEncoding.LE64, u.toLittleEndian());
    }
    return new EncodedValue(ValueEncoding.V8, V8.serialize(value));
  }

  /**
   * The Java value.
   *
   * @throws dev.kvasir.KvDecodeException if the bytes are malformed for their encoding
   */
  public Object decode() {
    switch (encoding) {
      case BYTES: return bytes.clone();
      case LE64: return KvU64.fromLittleEndian(bytes);
      default: return V8.deserialize(bytes);
    }
  }

  public ValueEncoding encoding() {
    return encoding;
  }

  /** The stored bytes (a copy). */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * The stored bytes themselves, not a copy, for handing to a driver or a decoder that only
   * reads them (a JDBC {@code setBytes}). Never change them: this value would change too.
   */
  public byte[] sharedBytes() {
    return bytes;
  }

  /** Length of the stored bytes, the size Deno's value limit counts. */
  public int size() {
    return bytes.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EncodedValue other && encoding == other.encoding
        && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * encoding.hashCode() + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return encoding + ":" + Hex.encode(bytes);
  }
}
