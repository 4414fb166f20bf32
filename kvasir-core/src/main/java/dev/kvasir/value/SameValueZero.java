package dev.kvasir.value;

import java.math.BigInteger;

/**
 * The key equality of JS {@code Map} and {@code Set}: primitives by value (NaN equals NaN, −0
 * equals +0, every Java number type is a JS number), everything else by identity.
 */
final class SameValueZero {
  private SameValueZero() {}

  /** A lookup key with SameValueZero equality under {@code equals}/{@code hashCode}. */
  static Object key(Object value) {
    if (value == null || value instanceof String || value instanceof Boolean
        || value instanceof BigInteger || value instanceof Undefined) {
      return value == null ? Null.NULL : value;
    }
    if (value instanceof Double || value instanceof Float || value instanceof Integer
        || value instanceof Long || value instanceof Short || value instanceof Byte) {
      double d = ((Number) value).doubleValue();
      return d == 0 ? 0.0 : d; // Double.equals already treats every NaN as equal
    }
    return new Identity(value);
  }

  /** JS Map stores {@code -0} as {@code +0}. */
  static Object normalize(Object value) {
    return value instanceof Double d && d == 0 ? 0.0 : value;
  }

  private enum Null { NULL }

  private record Identity(Object value) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Identity other && other.value == value;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(value);
    }
  }
}
