package dev.kvasir.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations such as {@code 1500} (milliseconds, as Deno), {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}. */
final class Durations implements ITypeConverter<Duration> {
  private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

  @Override
  public Duration convert(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      throw new TypeConversionException("'" + text + "' is not a duration; write milliseconds"
          + " (1500) or a number with ms, s, m, h or d (30s, 5m)");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
