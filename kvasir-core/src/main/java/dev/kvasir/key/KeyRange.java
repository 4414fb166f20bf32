package dev.kvasir.key;

import dev.kvasir.base.Hex;
import java.util.Arrays;

/**
 * A half-open range {@code [start, end)} of encoded keys, derived from encoded keys exactly as
 * Deno derives list and get ranges (docs/keys.md §7). Immutable.
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
  public static KeyRange single(byte[] key) {
    return new KeyRange(key.clone(), withSuffix(key, 0x00));
  }

  /**
   * Every key that strictly extends {@code prefix}: {@code [p‖00, p‖FF)}. The prefix key itself
   * is not included; the empty prefix covers every key.
   */
  public static KeyRange prefix(byte[] prefix) {
    return new KeyRange(withSuffix(prefix, 0x00), withSuffix(prefix, 0xff));
  }

  /**
   * Keys under {@code prefix}, from {@code start} on: {@code [s, p‖FF)}. The caller checks that
   * {@code start} strictly extends {@code prefix}, as Deno requires.
   */
  public static KeyRange prefixFrom(byte[] prefix, byte[] start) {
    return new KeyRange(start.clone(), withSuffix(prefix, 0xff));
  }

  /**
   * Keys under {@code prefix}, before {@code end}: {@code [p‖00, e)}. The caller checks that
   * {@code end} strictly extends {@code prefix}, as Deno requires.
   */
  public static KeyRange prefixUntil(byte[] prefix, byte[] end) {
    return new KeyRange(withSuffix(prefix, 0x00), end.clone());
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

  private static byte[] withSuffix(byte[] key, int suffix) {
    byte[] out = Arrays.copyOf(key, key.length + 1);
    out[out.length - 1] = (byte) suffix;
    return out;
  }
}
