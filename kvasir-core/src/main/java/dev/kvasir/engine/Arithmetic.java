package dev.kvasir.engine;

import dev.kvasir.base.KvDecodeException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.spi.Mutation;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.V8;
import dev.kvasir.value.ValueEncoding;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;

/**
 * The arithmetic of {@code sum}, {@code min} and {@code max} (docs/atomic.md), shared by
 * every engine so they agree to the byte. Results of V8 sums are encoded as denokv's Rust crate
 * encodes them: header {@code ff 0f}, numbers always as doubles, bigints with minimal length.
 */
public final class Arithmetic {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private Arithmetic() {}

  /**
   * The value {@code mutation} leaves behind, given the live value before it ({@code null} if
   * none).
   *
   * @throws KvTypeException with Deno's message if the operand or stored value has the wrong type
   */
  public static EncodedValue apply(Mutation mutation, EncodedValue current) {
    EncodedValue operand = mutation.value();
    return switch (mutation.kind()) {
      case SUM -> operand.is(ValueEncoding.LE64)
          ? u64(current, operand, "sum")
          : v8Sum(current, operand);
      case MIN -> u64(current, operand, "min");
      case MAX -> u64(current, operand, "max");
      case SET, SET_VERSIONSTAMPED_KEY, DELETE ->
          throw new IllegalArgumentException("not a sum, min or max: " + mutation);
    };
  }

  /**
   * Deno's error for a u64 {@code op} ({@code "sum"}, {@code "min"} or {@code "max"}) on a
   * stored value that is not a u64; also for engines that do the arithmetic elsewhere.
   */
  public static KvTypeException storedNotU64(String op) {
    return new KvTypeException(
        "Failed to perform '" + op + "' mutation on a non-U64 value in the database");
  }

  private static EncodedValue u64(EncodedValue current, EncodedValue operand, String op) {
    if (!operand.is(ValueEncoding.LE64)) {
      throw new KvTypeException("Failed to perform '" + op + "' mutation on a non-U64 operand");
    }
    if (current == null) {
      return operand;
    }
    if (!current.is(ValueEncoding.LE64)) {
      throw storedNotU64(op);
    }
    KvU64 a = (KvU64) current.decode();
    KvU64 b = (KvU64) operand.decode();
    KvU64 result = switch (op) {
      case "sum" -> a.sum(b);
      case "min" -> a.min(b);
      default -> a.max(b);
    };
    return EncodedValue.of(result);
  }

  private static EncodedValue v8Sum(EncodedValue current, EncodedValue operand) {
    Object b = numeric(operand);
    if (b == null) {
      throw new KvTypeException("Some of the parameters are not valid V8 values");
    }
    if (current == null) {
      return encode(b);
    }
    if (current.is(ValueEncoding.LE64) && b instanceof BigInteger big
        && big.signum() >= 0 && big.compareTo(TWO_64) < 0) {
      // Deno: a bigint operand on a stored KvU64 is a u64 sum (backward compatibility).
      return u64(current, EncodedValue.of(KvU64.of(big)), "sum");
    }
    Object a = current.is(ValueEncoding.V8) ? numeric(current) : null;
    if (a == null) {
      throw new KvTypeException(
          "Failed to perform 'sum' mutation on a non-number value in the database");
    }
    if (a instanceof Double x && b instanceof Double y) {
      return encode(x + y);
    }
    if (a instanceof BigInteger x && b instanceof BigInteger y) {
      return encode(x.add(y));
    }
    throw new KvTypeException("Cannot sum " + jsType(a) + " with " + jsType(b));
  }

  /** A V8 value that is a number ({@code Double}) or bigint, else {@code null}. */
  private static Object numeric(EncodedValue v) {
    if (!v.is(ValueEncoding.V8)) {
      return null;
    }
    try {
      Object o = V8.deserialize(v.bytes());
      return o instanceof Double || o instanceof BigInteger ? o : null;
    } catch (KvDecodeException e) {
      return null;
    }
  }

  private static String jsType(Object o) {
    return o instanceof Double ? "Number" : "BigInt";
  }

  private static EncodedValue encode(Object n) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0xff);
    out.write(0x0f);
    if (n instanceof Double d) {
      out.write('N');
      long bits = Double.doubleToRawLongBits(d);
      for (int i = 0; i < 8; i++) {
        out.write((int) (bits >>> (8 * i)));
      }
    } else {
      BigInteger big = (BigInteger) n;
      byte[] be = big.abs().toByteArray();
      int skip = be[0] == 0 ? 1 : 0;
      int length = big.signum() == 0 ? 0 : be.length - skip;
      out.write('Z');
      writeVarint(out, (long) length << 1 | (big.signum() < 0 ? 1 : 0));
      for (int i = be.length - 1; i >= skip && length > 0; i--) {
        out.write(be[i]);
      }
    }
    return EncodedValue.wrap(ValueEncoding.V8, out.toByteArray());
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7fL) != 0) {
      out.write((int) (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }
}
