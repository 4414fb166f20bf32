package dev.kvasir.cli;

import dev.kvasir.KvKey;
import dev.kvasir.base.KvException;
import dev.kvasir.key.KeyPart;
import dev.kvasir.value.JsFormat;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Keys on the command line: a JSON-like array whose parts cannot be mistaken for one another,
 * {@code ["users", "alice"]}, {@code ["n", 42, 7n, true, b"AQI="]}. A string is a JSON string, a
 * number a JSON number (or {@code NaN}, {@code -NaN}, {@code Infinity}, {@code -Infinity}), a bigint digits
 * followed by {@code n}, bytes {@code b"…"} with base64 inside, a boolean {@code true} or
 * {@code false}. {@link #format} writes the same syntax, so printed keys can be pasted back.
 */
final class KeySyntax {
  static final String EXAMPLE = "'[\"users\", \"alice\"]' or '[\"n\", 42, 7n, true, b\"AQI=\"]'";

  private final String text;
  private int at;

  private KeySyntax(String text) {
    this.text = text;
  }

  /**
   * The key written in {@code text}.
   *
   * @throws IllegalArgumentException naming the position and what was expected
   */
  static KvKey parse(String text) {
    KeySyntax p = new KeySyntax(text);
    List<Object> parts = p.parts();
    try {
      return KvKey.of(parts);
    } catch (KvException e) {
      throw new IllegalArgumentException("invalid key " + text + ": " + e.getMessage());
    }
  }

  private List<Object> parts() {
    skipSpace();
    expect('[', "a key starts with '['");
    List<Object> parts = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      at++;
      return end(parts);
    }
    while (true) {
      skipSpace();
      parts.add(part());
      skipSpace();
      if (peek() == ',') {
        at++;
      } else if (peek() == ']') {
        at++;
        return end(parts);
      } else {
        throw error("expected ',' or ']'");
      }
    }
  }

  private List<Object> end(List<Object> parts) {
    skipSpace();
    if (at < text.length()) {
      throw error("unexpected text after the closing ']'");
    }
    return parts;
  }

  private Object part() {
    char c = peek();
    if (c == '"') {
      return string();
    }
    if (c == 'b' && at + 1 < text.length() && text.charAt(at + 1) == '"') {
      at++;
      int start = at;
      String base64 = string();
      try {
        return Base64.getDecoder().decode(base64);
      } catch (IllegalArgumentException e) {
        at = start;
        throw error("bytes need base64 inside b\"…\" (" + e.getMessage() + ")");
      }
    }
    if (text.startsWith("true", at)) {
      at += 4;
      return Boolean.TRUE;
    }
    if (text.startsWith("false", at)) {
      at += 5;
      return Boolean.FALSE;
    }
    for (String name : new String[] {"NaN", "-NaN", "Infinity", "-Infinity"}) {
      if (text.startsWith(name, at)) {
        at += name.length();
        return TypedJson.special(name);
      }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number();
    }
    throw error("expected a string \"…\", a number, a bigint (7n), true, false or bytes"
        + " (b\"base64\")");
  }

  private Object number() {
    int start = at;
    if (peek() == '-') {
      at++;
    }
    while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    String digits = text.substring(start, at);
    if (peek() == 'n') {
      at++;
      try {
        return new BigInteger(digits);
      } catch (NumberFormatException e) {
        at = start;
        throw error("a bigint is an integer followed by n, such as 7n");
      }
    }
    if (!digits.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
      at = start;
      throw error("'" + digits + "' is not a JSON number");
    }
    return Double.parseDouble(digits);
  }

  private String string() {
    expect('"', "expected '\"'");
    StringBuilder out = new StringBuilder();
    while (true) {
      if (at >= text.length()) {
        throw error("the string is not closed with '\"'");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) {
        throw error("the string is not closed with '\"'");
      }
      char e = text.charAt(at++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) {
            throw error("\\u needs four hex digits");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException x) {
            throw error("\\u needs four hex digits");
          }
          at += 4;
        }
        default -> {
          at--;
          throw error("unknown escape \\" + e);
        }
      }
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void expect(char c, String message) {
    if (peek() != c) {
      throw error(message);
    }
    at++;
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException("invalid key " + text + " at position " + (at + 1)
        + ": " + problem + ". Keys look like " + EXAMPLE + ".");
  }

  /** The key in this syntax, e.g. {@code ["users", 42, 7n, b"AQI="]}. */
  static String format(KvKey key) {
    StringBuilder out = new StringBuilder("[");
    for (KeyPart part : key.parts()) {
      if (out.length() > 1) {
        out.append(", ");
      }
      out.append(formatPart(part));
    }
    return out.append(']').toString();
  }

  private static String formatPart(KeyPart part) {
    if (part instanceof KeyPart.Str s) {
      StringBuilder quoted = new StringBuilder();
      JsFormat.appendQuoted(quoted, s.value());
      return quoted.toString();
    } else if (part instanceof KeyPart.Num n) {
      double d = n.value();
      return Double.isNaN(d) || Double.isInfinite(d) || d == 0 && 1 / d < 0
          ? TypedJson.special(d) : JsFormat.numberToString(d);
    } else if (part instanceof KeyPart.BigInt i) {
      return i.value() + "n";
    } else if (part instanceof KeyPart.Bytes b) {
      return "b\"" + Base64.getEncoder().encodeToString(b.value()) + "\"";
    } else {
      return String.valueOf(((KeyPart.Bool) part).value());
    }
  }
}
