package dev.kvasir.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.base.KvException;
import dev.kvasir.key.Utf8;
import dev.kvasir.value.KvU64;
import java.math.BigInteger;
import java.util.Base64;
import java.util.regex.Pattern;

/** How a VALUE argument is read ({@code --type}). */
enum ValueType {
  /** {@link TypedJson}: plain JSON or a tagged form. */
  json,
  /** The argument as it is, a string. */
  string,
  number,
  bigint,
  /** Base64, stored as raw bytes (a Uint8Array in Deno). */
  bytes,
  /** An unsigned 64-bit integer, a Deno.KvU64. */
  u64,
  /** true or false. */
  bool;

  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?Infinity|NaN");

  /**
   * The value given on standard input ({@code set KEY -}): its exact bytes for {@link #bytes},
   * its exact text for {@link #string}, and otherwise its text without the surrounding
   * whitespace (the line break {@code echo} and editors end it with).
   *
   * @throws IllegalArgumentException for text that is not UTF-8, or as {@link #parse}
   */
  Object parseInput(byte[] input) {
    if (this == bytes) {
      return input;
    }
    String text;
    try {
      text = Utf8.decode(input, 0, input.length, "standard input");
    } catch (KvDecodeException e) {
      throw new IllegalArgumentException("standard input is not UTF-8 text; to store its bytes"
          + " as they are, pass --type bytes");
    }
    return parse(this == string ? text : text.strip());
  }

  /**
   * The value written in {@code text}.
   *
   * @throws IllegalArgumentException naming what was expected
   */
  Object parse(String text) {
    try {
      return switch (this) {
        case json -> TypedJson.read(JsonText.parse(text));
        case string -> text;
        case number -> decimal(text);
        case bigint -> new BigInteger(text);
        case bytes -> Base64.getDecoder().decode(text);
        case u64 -> KvU64.of(new BigInteger(text));
        case bool -> switch (text) {
          case "true" -> true;
          case "false" -> false;
          default -> throw new IllegalArgumentException("expected true or false");
        };
      };
    } catch (JsonProcessingException e) {
      String tagged = TypedJson.taggedFormOf(text.strip());
      if (tagged != null) {
        throw new IllegalArgumentException("'" + text.strip() + "' is not JSON; write it as '"
            + tagged + "'");
      }
      throw new IllegalArgumentException("'" + quoted(text) + "' is not JSON ("
          + withoutJacksonAdvice(JsonText.problem(e))
          + "); quote strings as '\"text\"' or pass --type string");
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + quoted(text) + "' is not a " + this);
    } catch (IllegalArgumentException | KvException e) {
      throw new IllegalArgumentException("'" + quoted(text) + "' is not a valid " + this
          + " value: " + e.getMessage());
    }
  }

  /**
   * A number as JavaScript's {@code Number(text)} reads a decimal one: digits with an optional
   * sign, point and exponent, or NaN and (signed) Infinity. Java's own syntax beyond that
   * ({@code 1d}, {@code 0x1p3}, white space around it) is refused rather than read.
   */
  private static double decimal(String text) {
    if (!DECIMAL.matcher(text).matches()) {
      throw new NumberFormatException(text);
    }
    return Double.parseDouble(text);
  }

  /**
   * Jackson's message for NaN or Infinity inside a value advises a feature of its API; the
   * user's way is the tagged form.
   */
  private static String withoutJacksonAdvice(String message) {
    int advice = message.indexOf(": enable `JsonReadFeature");
    return advice < 0 ? message : message.substring(0, advice)
        + ": write it as {\"$number\":\"NaN\"}, {\"$number\":\"Infinity\"} or"
        + " {\"$number\":\"-Infinity\"}";
  }

  /** {@code text} as an error quotes it: cut short, since it may be a whole file. */
  private static String quoted(String text) {
    return text.length() <= 80 ? text : text.substring(0, 77) + "...";
  }
}
