package dev.kvasir.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as people write them: milliseconds alone, as Deno takes them ({@code 1500}); a
 * number with a unit ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}); several
 * such parts and fractions, as Go and Prometheus write them ({@code 1h30m}, {@code 1.5s}); or
 * ISO-8601, as Java prints them ({@code PT1H30M}).
 */
final class Durations implements ITypeConverter<Duration> {
  private static final String PART = "(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)";
  private static final Pattern PARTS = Pattern.compile("(?:" + PART + ")+");
  private static final Pattern ONE_PART = Pattern.compile(PART);

  @Override
  public Duration convert(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.startsWith("-")) {
      throw negative(text);
    }
    try {
      if (t.matches("\\d+")) {
        return Duration.ofMillis(Long.parseLong(t));
      }
      if (t.startsWith("p")) {
        Duration d = Duration.parse(t);
        if (d.isNegative()) {
          throw negative(text);
        }
        return d;
      }
      if (PARTS.matcher(t).matches()) {
        BigDecimal seconds = BigDecimal.ZERO;
        Matcher part = ONE_PART.matcher(t);
        while (part.find()) {
          seconds = seconds.add(new BigDecimal(part.group(1)).multiply(secondsIn(part.group(2))));
        }
        BigDecimal whole = seconds.setScale(0, RoundingMode.DOWN);
        return Duration.ofSeconds(whole.longValueExact(),
            seconds.subtract(whole).movePointRight(9).longValue());
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw new TypeConversionException("'" + text + "' is too long a duration");
    } catch (DateTimeParseException e) {
      // not ISO-8601 after all: said below
    }
    throw new TypeConversionException("'" + text + "' is not a duration; write milliseconds"
        + " (1500), a number with ms, s, m, h or d (30s, 5m, 1.5s), several (1h30m) or ISO-8601"
        + " (PT1H30M)");
  }

  private static TypeConversionException negative(String text) {
    return new TypeConversionException("'" + text + "' is negative; a duration is 0 or more");
  }

  private static BigDecimal secondsIn(String unit) {
    return switch (unit) {
      case "ms" -> new BigDecimal("0.001");
      case "s" -> BigDecimal.ONE;
      case "m" -> BigDecimal.valueOf(60);
      case "h" -> BigDecimal.valueOf(3600);
      default -> BigDecimal.valueOf(86400);
    };
  }
}
