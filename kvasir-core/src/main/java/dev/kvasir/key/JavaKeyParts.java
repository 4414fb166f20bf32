package dev.kvasir.key;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.value.JsFormat;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.UUID;

/**
 * Java values as key parts and back (docs/keys.md §8). A UUID, an enum constant, an instant and
 * a date become string parts in forms that sort as the values do: the lower-case canonical UUID
 * (byte order), the constant's name, and ISO 8601 with every digit present (an instant always
 * with nine fraction digits and {@code Z}, years 0 to 9999).
 */
final class JavaKeyParts {
  private static final DateTimeFormatter INSTANT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final Instant FIRST = Instant.parse("0000-01-01T00:00:00Z");
  private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

  private JavaKeyParts() {}

  static KeyPart part(Object value) {
    if (value instanceof KeyPart part) {
      return part;
    } else if (value instanceof String s) {
      return new KeyPart.Str(s);
    } else if (value instanceof byte[] b) {
      return new KeyPart.Bytes(b);
    } else if (value instanceof BigInteger i) {
      return new KeyPart.BigInt(i);
    } else if (value instanceof Boolean b) {
      return new KeyPart.Bool(b);
    } else if (value instanceof Long l) {
      return new KeyPart.Num(JsFormat.exactDouble(l));
    } else if (value instanceof Double || value instanceof Float || value instanceof Integer
        || value instanceof Short || value instanceof Byte) {
      return new KeyPart.Num(((Number) value).doubleValue());
    } else if (value instanceof UUID u) {
      return new KeyPart.Str(u.toString());
    } else if (value instanceof Enum<?> e) {
      return new KeyPart.Str(e.name());
    } else if (value instanceof Instant t) {
      if (t.isBefore(FIRST) || t.isAfter(LAST)) {
        throw new KvTypeException("an instant key part must lie in the years 0 to 9999, for"
            + " its text to sort as it does: " + t);
      }
      return new KeyPart.Str(INSTANT.format(t));
    } else if (value instanceof LocalDate d) {
      if (d.getYear() < 0 || d.getYear() > 9999) {
        throw new KvTypeException("a date key part must lie in the years 0 to 9999: " + d);
      }
      return new KeyPart.Str(d.toString());
    }
    String type = value == null ? "null" : value.getClass().getName();
    throw new KvTypeException("unsupported key part type " + type + " (expected String,"
        + " byte[], BigInteger, Boolean, a number, UUID, an enum, Instant or LocalDate)");
  }

  static <T> T as(KeyPart part, Class<T> type) {
    try {
      Object out = convert(part, type);
      if (out != null) {
        @SuppressWarnings("unchecked")
        T typed = (T) out;
        return typed;
      }
    } catch (ArithmeticException | DateTimeParseException | IllegalArgumentException e) {
      throw new KvTypeException("key part " + part + " is no " + type.getSimpleName() + ": "
          + e.getMessage());
    }
    throw new KvTypeException("key part " + part + " is no " + type.getSimpleName());
  }

  /** The part as {@code type}, or null where it cannot be one. */
  private static Object convert(KeyPart part, Class<?> type) {
    if (type.isInstance(part)) {
      return part;
    }
    if (part instanceof KeyPart.Str s) {
      String text = s.value();
      if (type == String.class) {
        return text;
      } else if (type == UUID.class) {
        UUID u = UUID.fromString(text);
        return u.toString().equals(text) ? u : null; // only the canonical form
      } else if (type.isEnum()) {
        for (Object constant : type.getEnumConstants()) {
          if (((Enum<?>) constant).name().equals(text)) {
            return constant;
          }
        }
      } else if (type == Instant.class) {
        return Instant.from(INSTANT.parse(text));
      } else if (type == LocalDate.class) {
        return LocalDate.parse(text);
      }
    } else if (part instanceof KeyPart.Num n) {
      double d = n.value();
      if (type == Double.class || type == double.class) {
        return d;
      } else if (type == Long.class || type == long.class) {
        long l = (long) d;
        return l == d && d != 0x1p63 ? l : null;
      } else if (type == Integer.class || type == int.class) {
        int i = (int) d;
        return i == d ? i : null;
      } else if (type == BigInteger.class) {
        return Double.isFinite(d) && d == Math.rint(d)
            ? new BigDecimal(d).toBigIntegerExact() : null;
      }
    } else if (part instanceof KeyPart.BigInt b) {
      if (type == BigInteger.class) {
        return b.value();
      } else if (type == Long.class || type == long.class) {
        return b.value().longValueExact();
      }
    } else if (part instanceof KeyPart.Bytes b && type == byte[].class) {
      return b.value();
    } else if (part instanceof KeyPart.Bool b && (type == Boolean.class || type == boolean.class)) {
      return b.value();
    }
    return null;
  }
}
