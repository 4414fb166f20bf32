package dev.kvasir.testkit;

import dev.kvasir.value.V8;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The one way a value's V8 bytes from Deno may differ from Kvasir's for the same value: V8 can
 * keep an integral number as a double and write it as {@code N} (8 bytes) where Kvasir writes
 * the integer as {@code I} (a zigzag varint), depending on how V8 compiled the code that made it
 * (docs/values.md §6). Nothing else is forgiven: not the other direction, not a fraction, not
 * negative zero, not a number outside the 32-bit range that {@code I} holds.
 */
final class IntegralDoubles {
  private static final byte DOUBLE = 'N';
  private static final byte INT32 = 'I';
  /** A zigzag varint of 32 bits takes at most 5 bytes. */
  private static final int MAX_VARINT_BYTES = 5;

  private IntegralDoubles() {}

  /**
   * Whether {@code deno} is {@code ours} with some of its {@code I} numbers written as {@code N}
   * of the same value, and nothing else different. The bytes are walked in step: at each place
   * where they first differ, Deno's must hold {@code N} and ours {@code I} of the same number,
   * and both go on after it. Both must also decode to equal values, so a difference inside a
   * string that happens to look like the two tags is not taken for one.
   */
  static boolean onlyIntegralDoubles(byte[] deno, byte[] ours) {
    int d = 0;
    int o = 0;
    boolean differed = false;
    while (d < deno.length && o < ours.length) {
      if (deno[d] == ours[o]) {
        d++;
        o++;
        continue;
      }
      if (deno[d] != DOUBLE || ours[o] != INT32 || d + 1 + Double.BYTES > deno.length) {
        return false;
      }
      double number = ByteBuffer.wrap(deno, d + 1, Double.BYTES)
          .order(ByteOrder.LITTLE_ENDIAN).getDouble();
      long zigzag = 0;
      int p = o + 1;
      for (int shift = 0; ; shift += 7) {
        if (p >= ours.length || p - (o + 1) >= MAX_VARINT_BYTES) {
          return false;
        }
        int b = ours[p++] & 0xff;
        zigzag |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
      }
      long integer = (zigzag >>> 1) ^ -(zigzag & 1);
      if (integer != (int) integer
          || Double.doubleToRawLongBits(number) != Double.doubleToRawLongBits(integer)) {
        return false;
      }
      d += 1 + Double.BYTES;
      o = p;
      differed = true;
    }
    return differed && d == deno.length && o == ours.length && decodeAlike(deno, ours);
  }

  private static boolean decodeAlike(byte[] deno, byte[] ours) {
    try {
      return Objects.equals(V8.deserialize(deno), V8.deserialize(ours));
    } catch (RuntimeException e) {
      return false;
    }
  }
}
