package dev.kvasir;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.mapping.TypeRef;
import dev.kvasir.mapping.ValueMapper;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A key with its value and versionstamp as read. For a key that does not exist, {@link #value()}
 * and {@link #versionstamp()} are {@code null}. The value is decoded on first use and then the
 * same object is returned each time; it is a mutable graph (maps, lists) owned by the caller.
 */
public final class KvEntry {
  /** Stands for a decoded null, so that one field says both whether and what was decoded. */
  private static final Object NULL = new Object();

  private final KvKey key;
  private final @Nullable EncodedValue encoded;
  private final @Nullable Versionstamp versionstamp;
  private final ValueMapper mapper;
  /** The value once decoded, {@link #NULL} for null; null while not decoded yet. */
  private volatile @Nullable Object decoded;

  KvEntry(KvKey key, @Nullable EncodedValue encoded, @Nullable Versionstamp versionstamp,
      ValueMapper mapper) {
    this.key = Objects.requireNonNull(key, "key");
    this.encoded = encoded;
    this.versionstamp = versionstamp;
    this.mapper = mapper;
  }

  static KvEntry missing(KvKey key, ValueMapper mapper) {
    return new KvEntry(key, null, null, mapper);
  }

  public KvKey key() {
    return key;
  }

  /** Whether the key exists (a stored {@code null} exists; a missing key does not). */
  public boolean exists() {
    return versionstamp != null;
  }

  /**
   * The value as the Java value model reads it (docs/values.md §7): a {@code Map} for an object, a
   * {@code List} for an array, {@code Double} for a number, {@code byte[]} for bytes stored raw,
   * {@link KvU64} for a u64, and so on; {@code null} if the key does not exist.
   *
   * @throws KvCorruptEntryException if the stored value is corrupt or its encoding unknown
   */
  public @Nullable Object value() {
    Object value = decoded;
    if (value == null) {
      synchronized (this) {
        value = decoded;
        if (value == null) {
          try {
            value = encoded == null ? NULL : Objects.requireNonNullElse(encoded.decode(), NULL);
          } catch (KvDecodeException e) {
            throw new KvCorruptEntryException(key.encode(), key.toString(), e.getMessage());
          }
          decoded = value;
        }
      }
    }
    return value == NULL ? null : value;
  }

  /**
   * The value as {@code type}, by the database's {@link ValueMapper} (docs/mapping.md): a
   * record or JavaBean from an object, a boxed or primitive number (integral targets need an
   * integral value in range), {@code String}, an enum by name, {@code UUID}, {@code java.time}
   * types, {@code Optional}, arrays, and {@code Map}/{@code List} of those.
   *
   * @throws KvTypeException naming the path inside the value that does not fit
   */
  public <T> @Nullable T value(Class<T> type) {
    return mapper.read(value(), type);
  }

  /**
   * The value as a generic type: {@code entry.value(new TypeRef<List<User>>() {})}.
   *
   * @throws KvTypeException naming the path inside the value that does not fit
   */
  public <T> @Nullable T value(TypeRef<T> type) {
    return mapper.read(value(), type);
  }

  /** The stored encoding and bytes, or {@code null} if the key does not exist. */
  public @Nullable EncodedValue encodedValue() {
    return encoded;
  }

  /** The versionstamp of the commit that wrote the value, or {@code null} if none. */
  public @Nullable Versionstamp versionstamp() {
    return versionstamp;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KvEntry other && key.equals(other.key)
        && Objects.equals(encoded, other.encoded)
        && Objects.equals(versionstamp, other.versionstamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, encoded, versionstamp);
  }

  /**
   * The key, the value as {@link #value()} reads it (bytes stored raw in hex) and the
   * versionstamp, so that a logged entry shows what it holds; a value that does not decode shows
   * its stored encoding and bytes.
   */
  @Override
  public String toString() {
    return "KvEntry[key=" + key + ", value=" + shownValue() + ", versionstamp=" + versionstamp
        + "]";
  }

  private String shownValue() {
    if (encoded == null) {
      return "null";
    }
    try {
      Object value = value();
      return value instanceof byte[] bytes ? "bytes " + Hex.encode(bytes) : String.valueOf(value);
    } catch (KvCorruptEntryException e) {
      return "corrupt " + encoded;
    }
  }
}
