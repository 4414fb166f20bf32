package dev.kvasir;

import dev.kvasir.base.KvDecodeException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.key.KeyCodec;
import dev.kvasir.key.KeyPart;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.JsFormat;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * A Deno KV key: an immutable sequence of {@link KeyPart}s. Its binary form ({@link #encode()})
 * is byte for byte the one Deno stores (docs/keys.md), and keys compare in that
 * encoded, unsigned byte order, which is the order {@code list} returns them in. Equality and
 * hash code follow the encoding too.
 *
 * <pre>{@code
 * KvKey key = KvKey.of("users", 42, BigInteger.ONE, true, new byte[] {1, 2});
 * key.toString();   // ["users",42,1n,true,Uint8Array(2)[1,2]]
 * }</pre>
 *
 * <p>Thread-safe: instances are immutable.
 */
public final class KvKey implements Comparable<KvKey> {
  private static final KvKey EMPTY = new KvKey(new KeyPart[0]);

  private final KeyPart[] parts;
  private final byte[] encoded;

  private KvKey(KeyPart[] parts) {
    this.parts = parts;
    this.encoded = KeyCodec.encode(parts);
  }

  private KvKey(KeyPart[] parts, byte[] encoded) {
    this.parts = parts;
    this.encoded = encoded;
  }

  /**
   * A key of the given parts; see {@link KeyPart#of(Object)} for the accepted Java types
   * ({@code String}, numbers, {@code BigInteger}, {@code Boolean}, {@code byte[]}, {@code
   * UUID}, enums, {@code Instant}, {@code LocalDate}). {@link #builder()} checks the types when
   * compiling instead.
   *
   * @throws KvTypeException naming the index and type of the first unsupported part
   * @throws KvLimitException naming the index of a bigint part too large for a key
   */
  public static KvKey of(Object... parts) {
    if (parts.length == 0) {
      return EMPTY;
    }
    KeyPart[] converted = new KeyPart[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        converted[i] = KeyPart.of(parts[i]);
      } catch (KvLimitException e) {
        throw new KvLimitException("key part " + i + ": " + e.getMessage());
      } catch (KvTypeException e) {
        throw new KvTypeException("key part " + i + ": " + e.getMessage());
      }
    }
    return new KvKey(converted);
  }

  /**
   * A key built part by part, each of a type a key can hold, so that a wrong type fails to
   * compile: {@code KvKey.builder().add("todos").add(id).add(Instant.now()).build()}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link KvKey}; {@link KvKey#builder()}. Not thread-safe. */
  public static final class Builder {
    private final List<KeyPart> parts = new ArrayList<>();

    private Builder() {}

    private Builder part(Object value) {
      parts.add(KeyPart.of(value));
      return this;
    }

    public Builder add(String part) {
      return part(part);
    }

    /** A number part; {@code long}s beyond ±2^53 are refused (use a {@code BigInteger}). */
    public Builder add(long part) {
      return part(part);
    }

    public Builder add(double part) {
      return part(part);
    }

    public Builder add(boolean part) {
      return part(part);
    }

    public Builder add(BigInteger part) {
      return part(part);
    }

    /** A byte-string part (a copy). */
    public Builder add(byte[] part) {
      return part(part);
    }

    /** A string part: the lower-case canonical form. */
    public Builder add(UUID part) {
      return part(part);
    }

    /** A string part: the constant's name. */
    public Builder add(Enum<?> part) {
      return part(part);
    }

    /** A string part: ISO 8601 with nine fraction digits, which sorts as instants do. */
    public Builder add(Instant part) {
      return part(part);
    }

    /** A string part: ISO 8601 ({@code 2024-01-31}). */
    public Builder add(LocalDate part) {
      return part(part);
    }

    public Builder add(KeyPart part) {
      return part(part);
    }

    public KvKey build() {
      return parts.isEmpty() ? EMPTY : new KvKey(parts.toArray(KeyPart[]::new));
    }
  }

  /** A key of the given parts, in order. */
  public static KvKey of(List<?> parts) {
    return of(parts.toArray());
  }

  /**
   * Decodes a key from Deno's binary form.
   *
   * @throws KvDecodeException if the bytes are not a well-formed, canonical key encoding
   */
  public static KvKey decode(byte[] encoded) {
    byte[] copy = encoded.clone();
    return new KvKey(KeyCodec.decode(copy), copy);
  }

  /**
   * Decodes bytes that nothing changes, such as an engine's {@code RawKey}, sharing them. When
   * they start with {@code prefix} (may be null), its parts are reused rather than decoded again.
   */
  static KvKey decodeShared(byte[] encoded, KvKey prefix) {
    if (prefix != null && startsWith(encoded, prefix.encoded)) {
      return new KvKey(KeyCodec.decode(encoded, prefix.encoded.length, prefix.parts), encoded);
    }
    return new KvKey(KeyCodec.decode(encoded), encoded);
  }

  /** The encoded key; a fresh copy on each call. */
  public byte[] encode() {
    return encoded.clone();
  }

  /** The encoded key as engines take it ({@link RawKey}), sharing this key's bytes. */
  public RawKey raw() {
    return RawKey.wrap(encoded);
  }

  /** Length of {@link #encode()} in bytes, without copying. */
  public int encodedLength() {
    return encoded.length;
  }

  public int size() {
    return parts.length;
  }

  public boolean isEmpty() {
    return parts.length == 0;
  }

  public KeyPart get(int index) {
    return parts[index];
  }

  /**
   * Part {@code index} as {@code type}: {@code key.part(1, UUID.class)} reads back what {@code
   * KvKey.of("todos", uuid)} wrote; see {@link KeyPart#as(Class)}.
   *
   * @throws KvTypeException naming the index if the part does not hold a {@code type}
   */
  public <T> T part(int index, Class<T> type) {
    try {
      return parts[index].as(type);
    } catch (KvTypeException e) {
      throw new KvTypeException(this + " part " + index + ": " + e.getMessage());
    }
  }

  /** The parts, as an unmodifiable list. */
  public List<KeyPart> parts() {
    return Collections.unmodifiableList(Arrays.asList(parts));
  }

  /** This key followed by more parts: {@code KvKey.of("users").append("alice")}. */
  public KvKey append(Object... more) {
    KvKey tail = of(more);
    KeyPart[] joined = Arrays.copyOf(parts, parts.length + tail.parts.length);
    System.arraycopy(tail.parts, 0, joined, parts.length, tail.parts.length);
    byte[] bytes = Arrays.copyOf(encoded, encoded.length + tail.encoded.length);
    System.arraycopy(tail.encoded, 0, bytes, encoded.length, tail.encoded.length);
    return new KvKey(joined, bytes);
  }

  /** Whether {@code prefix}'s parts are the first parts of this key (a key starts with itself). */
  public boolean startsWith(KvKey prefix) {
    // Every encoded part is prefix-free, so a byte prefix at a part boundary is a part prefix.
    return prefix.parts.length <= parts.length && startsWith(encoded, prefix.encoded);
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return prefix.length <= bytes.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** Deno's order: unsigned lexicographic order of the encodings (docs/keys.md §6). */
  @Override
  public int compareTo(KvKey other) {
    return Arrays.compareUnsigned(encoded, other.encoded);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KvKey other && Arrays.equals(encoded, other.encoded);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(encoded);
  }

  /** Deno's notation: {@code ["users",42,1n,true,Uint8Array(2)[1,2]]}. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      appendPart(out, parts[i]);
    }
    return out.append(']').toString();
  }

  private static void appendPart(StringBuilder out, KeyPart part) {
    if (part instanceof KeyPart.Str s) {
      JsFormat.appendQuoted(out, s.value());
    } else if (part instanceof KeyPart.Num n) {
      out.append(JsFormat.numberToString(n.value()));
    } else if (part instanceof KeyPart.BigInt b) {
      out.append(b.value()).append('n');
    } else if (part instanceof KeyPart.Bool b) {
      out.append(b.value());
    } else if (part instanceof KeyPart.Bytes b) {
      byte[] bytes = b.value();
      out.append("Uint8Array(").append(bytes.length).append(")[");
      for (int i = 0; i < bytes.length; i++) {
        out.append(i == 0 ? "" : ",").append(bytes[i] & 0xff);
      }
      out.append(']');
    }
  }
}
