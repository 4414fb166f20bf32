package dev.kvasir.key;

import dev.kvasir.KvKey;
import java.util.Arrays;

/**
 * A half-open range {@code [start, end)} of encoded keys, derived from keys exactly as Deno
 * derives list and get ranges (docs/keys.md §7). Immutable.
 */
public final class KeyRange {
  private final byte[] start;
  private final byte[] end;

  private KeyRange(byte[] start, byte[] end) {
    this.start = start;
    this.end = end;
  }

  /** The raw range; the arrays are copied. */
  public static KeyRange of(byte[] start, byte[] end) {
    return new KeyRange(start.clone(), end.clone());
  }

  /** The one key {@code k}: {@code [k, k‖00)}. Used by get, getMany and watch. */
  public static KeyRange single(KvKey key) {
    return new KeyRange(key.encode(), withSuffix(key, 0x00));
  }

  /**
   * Every key that strictly extends {@code prefix}: {@code [p‖00, p‖FF)}. The prefix key itself
   * is not included; the empty prefix covers every key.
   */
  public static KeyRange prefix(KvKey prefix) {
    return new KeyRange(withSuffix(prefix, 0x00), withSuffix(prefix, 0xff));
  }

  /**
   * Keys under {@code prefix}, from {@code start} on: {@code [s, p‖FF)}.
   *
   * @throws IllegalArgumentException if {@code start} does not strictly extend {@code prefix}
   */
  public static KeyRange prefixFrom(KvKey prefix, KvKey start) {
    requireUnder(prefix, start, "Start");
    return new KeyRange(start.encode(), withSuffix(prefix, 0xff));
  }

  /**
   * Keys under {@code prefix}, before {@code end}: {@code [p‖00, e)}.
   *
   * @throws IllegalArgumentException if {@code end} does not strictly extend {@code prefix}
   */
  public static KeyRange prefixUntil(KvKey prefix, KvKey end) {
    requireUnder(prefix, end, "End");
    return new KeyRange(withSuffix(prefix, 0x00), end.encode());
  }

  /**
   * Keys from {@code start} (inclusive) to {@code end} (exclusive).
   *
   * @throws IllegalArgumentException if {@code start} sorts after {@code end}
   */
  public static KeyRange between(KvKey start, KvKey end) {
    if (start.compareTo(end) > 0) {
      throw new IllegalArgumentException(
          "Start key is greater than end key: " + start + " > " + end);
    }
    return new KeyRange(start.encode(), end.encode());
  }

  public byte[] start() {
    return start.clone();
  }

  public byte[] end() {
    return end.clone();
  }

  /** Whether the encoded key lies in {@code [start, end)}. */
  public boolean contains(byte[] encodedKey) {
    return Arrays.compareUnsigned(encodedKey, start) >= 0
        && Arrays.compareUnsigned(encodedKey, end) < 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange other && Arrays.equals(start, other.start)
        && Arrays.equals(end, other.end);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(start) + Arrays.hashCode(end);
  }

  @Override
  public String toString() {
    return "[" + Hex.encode(start) + ", " + Hex.encode(end) + ")";
  }

  private static void requireUnder(KvKey prefix, KvKey key, String which) {
    if (key.size() <= prefix.size() || !key.startsWith(prefix)) {
      throw new IllegalArgumentException(
          which + " key is not in the keyspace defined by prefix: " + key + " under " + prefix);
    }
  }

  private static byte[] withSuffix(KvKey key, int suffix) {
    byte[] out = Arrays.copyOf(key.encode(), key.encodedLength() + 1);
    out[out.length - 1] = (byte) suffix;
    return out;
  }
}
