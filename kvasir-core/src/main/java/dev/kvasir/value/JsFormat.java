package dev.kvasir.value;

import dev.kvasir.base.KvTypeException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** JS number and string conversions that Java lacks. Stateless. */
public final class JsFormat {
  private JsFormat() {}

  /**
   * The double equal to {@code value}.
   *
   * @throws KvTypeException if a double cannot hold it exactly (no silent rounding)
   */
  public static double exactDouble(long value) {
    double d = value;
    // (long) 2^63 saturates back to Long.MAX_VALUE, so that case needs its own test.
    if (d == 0x1p63 || (long) d != value) {
      throw new KvTypeException("Long " + value
          + " cannot be represented exactly as a JS number; use BigInteger for a bigint");
    }
    return d;
  }

  /** {@code Number.prototype.toString()}: {@code 42}, {@code 1.5}, {@code 1e+21}, {@code -0} → "0". */
  public static String numberToString(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0) {
      return "0";
    }
    if (value == Math.rint(value) && Math.abs(value) < 0x1p53) {
      return Long.toString((long) value);
    }
    BigDecimal decimal = shortestDecimal(Math.abs(value));
    String digits = decimal.unscaledValue().toString();
    int k = digits.length();
    int n = k - decimal.scale(); // value = 0.digits × 10^n
    StringBuilder out = new StringBuilder(value < 0 ? "-" : "");
    if (k <= n && n <= 21) {
      out.append(digits).append("0".repeat(n - k));
    } else if (0 < n && n <= 21) {
      out.append(digits, 0, n).append('.').append(digits, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.").append("0".repeat(-n)).append(digits);
    } else {
      out.append(digits.charAt(0));
      if (k > 1) {
        out.append('.').append(digits, 1, k);
      }
      out.append('e').append(n - 1 >= 0 ? "+" : "-").append(Math.abs(n - 1));
    }
    return out.toString();
  }

  /**
   * The decimal with the fewest significant digits that reads back as {@code d}, as JS
   * requires. (Java 17's {@code Double.toString} is not always the shortest, e.g. 4.9E-324.)
   */
  private static BigDecimal shortestDecimal(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int precision = 1; ; precision++) {
      BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == d) {
        return rounded.stripTrailingZeros();
      }
    }
  }

  /** Appends {@code s} as a JSON string literal (lone surrogates escaped). */
  public static void appendQuoted(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))
              || Character.isLowSurrogate(c) && i > 0
              && Character.isHighSurrogate(s.charAt(i - 1));
          if (c < 0x20 || Character.isSurrogate(c) && !paired) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
