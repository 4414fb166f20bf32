package dev.kvasir.value;

import dev.kvasir.base.Hex;
import java.util.Arrays;
import java.util.Objects;

/**
 * A value as stored: its {@link ValueEncoding} and bytes. {@link #of(Object)} chooses the
 * encoding as Deno does (docs/values.md §1): raw bytes for a top-level {@code byte[]},
 * little-endian u64 for a top-level {@link KvU64}, V8 for everything else. Immutable.
 *
 * <p>A value read from storage may carry an encoding number Deno does not define (another
 * program wrote it, {@link #stored}); it is kept as it is, so that the entry can still be
 * listed, served and skipped, and fails only when decoded ({@link #decode}, {@link
 * #encoding}).
 */
public final class EncodedValue {
  /** Null for an encoding number no {@link ValueEncoding} has. */
  private final ValueEncoding encoding;
  private final int code;
  private final byte[] bytes;

  private EncodedValue(ValueEncoding encoding, byte[] bytes) {
    this.encoding = encoding;
    this.code = encoding.code();
    this.bytes = bytes;
  }

  private EncodedValue(int code, byte[] bytes) {
    this.encoding = null;
    this.code = code;
    this.bytes = bytes;
  }

  /**
   * A value as an engine read it from storage, without a copy (see {@link #wrap}); an unknown
   * encoding number is kept rather than refused.
   */
  public static EncodedValue stored(int code, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    ValueEncoding known = ValueEncoding.find(code);
    return known != null ? new EncodedValue(known, bytes) : new EncodedValue(code, bytes);
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
   * @throws dev.kvasir.base.KvTypeException if the value (or something inside it) is not
   *     serializable, naming its path
   */
  public static EncodedValue of(Object value) {
    return of(value, null);
  }

  /**
   * Encodes a Java value, asking {@code adapter} (may be null) for what the JS value model does
   * not hold; see {@link V8#serialize(Object, JsAdapter)}.
   *
   * @throws dev.kvasir.base.KvTypeException if the value (or something inside it) is not
   *     serializable, naming its path
   */
  public static EncodedValue of(Object value, JsAdapter adapter) {
    if (value instanceof byte[] bytes) {
      return new EncodedValue(ValueEncoding.BYTES, bytes.clone());
    }
    if (value instanceof KvU64 u) {
      return new EncodedValue(ValueEncoding.LE64, u.toLittleEndian());
    }
    return new EncodedValue(ValueEncoding.V8, V8.serialize(value, adapter));
  }

  /**
   * The Java value.
   *
   * @throws dev.kvasir.base.KvDecodeException if the bytes are malformed for their encoding
   */
  public Object decode() {
    switch (encoding()) {
      case BYTES: return bytes.clone();
      case LE64: return KvU64.fromLittleEndian(bytes);
      default: return V8.deserialize(bytes);
    }
  }

  /**
   * How the bytes are encoded.
   *
   * @throws dev.kvasir.base.KvDecodeException if the stored encoding number is not one Deno defines
   */
  public ValueEncoding encoding() {
    return encoding != null ? encoding : ValueEncoding.ofCode(code); // throws for the unknown
  }

  /** Whether the value has encoding {@code e} (false for an unknown encoding; never throws). */
  public boolean is(ValueEncoding e) {
    return encoding == e;
  }

  /** The encoding number as stored: Deno's {@code kv.v_encoding}, possibly an unknown one. */
  public int code() {
    return code;
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
    return o instanceof EncodedValue other && code == other.code
        && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * code + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return (encoding != null ? encoding.toString() : "encoding " + code) + ":"
        + Hex.encode(bytes);
  }
}
