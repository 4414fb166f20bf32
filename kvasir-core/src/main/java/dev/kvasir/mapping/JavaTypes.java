package dev.kvasir.mapping;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAccessor;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Function;

/**
 * The Java types the JS value model lacks and Kvasir maps itself (docs/mapping.md §1): each is
 * written as a string, a number or null, in a form that reads back equal. Dates and times that
 * are instants of whole milliseconds are JS Dates (the V8 writer's own); every other {@code
 * java.time} type is its ISO 8601 text, which keeps its precision, zone and offset.
 */
final class JavaTypes {
  /** How each type with a text form reads back from it. */
  private static final Map<Class<?>, Function<String, Object>> PARSERS = Map.ofEntries(
      Map.entry(UUID.class, text -> {
        UUID u = UUID.fromString(text);
        if (!u.toString().equals(text.toLowerCase(java.util.Locale.ROOT))) {
          throw new IllegalArgumentException("not a canonical UUID");
        }
        return u;
      }),
      Map.entry(BigDecimal.class, BigDecimal::new),
      Map.entry(URI.class, URI::create),
      Map.entry(Instant.class, Instant::parse),
      Map.entry(LocalDate.class, LocalDate::parse),
      Map.entry(LocalTime.class, LocalTime::parse),
      Map.entry(LocalDateTime.class, LocalDateTime::parse),
      Map.entry(OffsetDateTime.class, OffsetDateTime::parse),
      Map.entry(OffsetTime.class, OffsetTime::parse),
      Map.entry(ZonedDateTime.class, ZonedDateTime::parse),
      Map.entry(Year.class, Year::parse),
      Map.entry(YearMonth.class, YearMonth::parse),
      Map.entry(MonthDay.class, MonthDay::parse),
      Map.entry(Duration.class, Duration::parse),
      Map.entry(Period.class, Period::parse),
      Map.entry(ZoneId.class, ZoneId::of));

  private JavaTypes() {}

  /**
   * {@code value} as the JS value model holds it, or {@code value} itself when this is not one
   * of the types mapped here. Enums become their names, {@code Optional}s their content or
   * null, the types of {@link #PARSERS} their text.
   */
  static Object write(Object value) {
    if (value instanceof Enum<?> e) {
      return e.name();
    } else if (value instanceof Optional<?> o) {
      return o.orElse(null);
    } else if (value instanceof OptionalInt o) {
      return o.isPresent() ? (Object) o.getAsInt() : null;
    } else if (value instanceof OptionalLong o) {
      return o.isPresent() ? (Object) o.getAsLong() : null;
    } else if (value instanceof OptionalDouble o) {
      return o.isPresent() ? (Object) o.getAsDouble() : null;
    } else if (value instanceof Character c) {
      return c.toString();
    } else if (value instanceof UUID || value instanceof BigDecimal || value instanceof URI
        || value instanceof TemporalAccessor || value instanceof Duration
        || value instanceof Period || value instanceof ZoneId) {
      return value.toString(); // ISO 8601 for the java.time types
    }
    return value;
  }

  /** Whether {@code type} reads back from the text {@link #write} made of it. */
  static boolean fromText(Class<?> type) {
    return PARSERS.containsKey(type) || ZoneId.class.isAssignableFrom(type);
  }

  /**
   * The value of {@code type} that {@code text} stands for.
   *
   * @throws RuntimeException if {@code text} is no such value
   */
  static Object parse(String text, Class<?> type) {
    Function<String, Object> parser = PARSERS.get(ZoneId.class.isAssignableFrom(type)
        ? ZoneId.class : type);
    Object out = parser.apply(text);
    if (!type.isInstance(out)) {
      throw new IllegalArgumentException("it is a " + out.getClass().getSimpleName());
    }
    return out;
  }

  /** An instant read as a JS Date, as {@code type}: itself, or a {@code java.util.Date}. */
  static Object fromInstant(Instant instant, Class<?> type) {
    return type == Date.class ? Date.from(instant) : instant;
  }
}
