package dev.kvasir.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Sizes in bytes as the JVM's {@code -Xmx} takes them ({@code 1048576}, {@code 512k},
 * {@code 64m}, {@code 1g}), and with the suffixes people add ({@code 64MB}, {@code 64MiB},
 * Kubernetes' {@code 64Mi}), each a power of 1024 as in {@code -Xmx}.
 */
final class ByteSizes implements ITypeConverter<Long> {
  private static final Pattern FORM = Pattern.compile("(\\d{1,15})(?:([kmg])i?)?b?");

  @Override
  public Long convert(String text) {
    Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new TypeConversionException("'" + text + "' is not a size; write bytes (1048576)"
          + " or a number with k, m or g (512k, 64m, 1g; 64MB and 64MiB are 64m too)");
    }
    long n = Long.parseLong(m.group(1));
    int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      default -> 0;
    };
    try {
      return Math.multiplyExact(n, 1L << shift);
    } catch (ArithmeticException e) {
      throw new TypeConversionException("'" + text + "' is too large a size");
    }
  }
}
