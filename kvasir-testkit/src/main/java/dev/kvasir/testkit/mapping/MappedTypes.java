package dev.kvasir.testkit.mapping;

import dev.kvasir.mapping.TypeRef;
import dev.kvasir.mapping.ValueCodec;
import dev.kvasir.mapping.ValueMapper;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
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
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Every Java type Kvasir maps (docs/mapping.md), with a sample, the type to read it back as, and
 * what Deno sees when it reads the sample: the table the round-trip contract, the Deno interop
 * test and the README share.
 */
public final class MappedTypes {
  private MappedTypes() {}

  /** A status, as an enum. */
  public enum Status { OPEN, DONE }

  /** A record with components of mapped types. */
  public record Todo(UUID id, String title, Status status, LocalDate due,
      Optional<Instant> doneAt, List<String> tags) {}

  /** A user type that a {@link ValueCodec} maps: "12.50 EUR". */
  public record Money(BigDecimal amount, String currency) {
    static Money parse(String text) {
      String[] parts = text.split(" ");
      return new Money(new BigDecimal(parts[0]), parts[1]);
    }

    @Override
    public String toString() {
      return amount + " " + currency;
    }
  }

  /** The codec for {@link Money}. */
  public static final ValueCodec MONEY = ValueCodec.of(Money.class, Money::toString,
      js -> Money.parse((String) js));

  /** A sealed interface of records, which {@link #SHAPES} writes with a tag. */
  public sealed interface Shape permits Circle, Square {}

  /** One of {@link Shape}'s records. */
  public record Circle(double radius) implements Shape {}

  /** The other. */
  public record Square(double side) implements Shape {}

  /** The codec for {@link Shape}: {@code {type: "Circle", radius: 1.5}}. */
  public static final ValueCodec SHAPES = ValueCodec.sealed(Shape.class, "type");

  /** The mapper with {@link #MONEY} and {@link #SHAPES}, which the samples need. */
  public static final ValueMapper MAPPER = ValueMapper.defaults().with(MONEY).with(SHAPES);

  /**
   * One sample: written, read back as {@code type}, it must equal {@code value}; Deno sees it as
   * {@code denoSees} (the form {@code describe.ts} prints).
   */
  public record Sample(String name, Object value, Type type, String denoSees) {}

  private static final UUID ID = UUID.fromString("0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10");

  /** The table. */
  public static List<Sample> samples() {
    ZonedDateTime paris = ZonedDateTime.of(2024, 1, 31, 12, 30, 0, 0, ZoneId.of("Europe/Paris"));
    return List.of(
        new Sample("enum", Status.DONE, Status.class, "string \"DONE\""),
        new Sample("UUID", ID, UUID.class, "string \"0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10\""),
        new Sample("Instant, whole ms", Instant.parse("2024-01-31T12:00:00.123Z"),
            Instant.class, "Date 2024-01-31T12:00:00.123Z"),
        new Sample("Instant, finer", Instant.parse("2024-01-31T12:00:00.123456789Z"),
            Instant.class, "string \"2024-01-31T12:00:00.123456789Z\""),
        new Sample("java.util.Date", new Date(1706702400123L), Date.class,
            "Date 2024-01-31T12:00:00.123Z"),
        new Sample("LocalDate", LocalDate.of(2024, 1, 31), LocalDate.class,
            "string \"2024-01-31\""),
        new Sample("LocalTime", LocalTime.of(12, 30, 15, 500_000_000), LocalTime.class,
            "string \"12:30:15.500\""),
        new Sample("LocalDateTime", LocalDateTime.of(2024, 1, 31, 12, 30), LocalDateTime.class,
            "string \"2024-01-31T12:30\""),
        new Sample("OffsetDateTime", paris.toOffsetDateTime(), OffsetDateTime.class,
            "string \"2024-01-31T12:30+01:00\""),
        new Sample("OffsetTime", OffsetTime.of(12, 30, 0, 0, ZoneOffset.ofHours(1)),
            OffsetTime.class, "string \"12:30+01:00\""),
        new Sample("ZonedDateTime", paris, ZonedDateTime.class,
            "string \"2024-01-31T12:30+01:00[Europe/Paris]\""),
        new Sample("Year", Year.of(2024), Year.class, "string \"2024\""),
        new Sample("YearMonth", YearMonth.of(2024, 1), YearMonth.class, "string \"2024-01\""),
        new Sample("MonthDay", MonthDay.of(1, 31), MonthDay.class, "string \"--01-31\""),
        new Sample("Duration", Duration.ofMillis(1500), Duration.class, "string \"PT1.5S\""),
        new Sample("Period", Period.of(1, 2, 3), Period.class, "string \"P1Y2M3D\""),
        new Sample("ZoneId", ZoneId.of("Europe/Paris"), ZoneId.class,
            "string \"Europe/Paris\""),
        new Sample("ZoneOffset", ZoneOffset.ofHours(1), ZoneOffset.class, "string \"+01:00\""),
        new Sample("Optional, empty", Optional.empty(), new TypeRef<Optional<String>>() {}.type(),
            "null"),
        new Sample("Optional, present", Optional.of("x"),
            new TypeRef<Optional<String>>() {}.type(), "string \"x\""),
        new Sample("OptionalInt", OptionalInt.of(7), OptionalInt.class, "number 7"),
        new Sample("OptionalLong", OptionalLong.empty(), OptionalLong.class, "null"),
        new Sample("OptionalDouble", OptionalDouble.of(1.5), OptionalDouble.class,
            "number 1.5"),
        new Sample("BigDecimal", new BigDecimal("12.50"), BigDecimal.class,
            "string \"12.50\""),
        new Sample("char", 'x', Character.class, "string \"x\""),
        new Sample("URI", URI.create("https://deno.com/kv"), URI.class,
            "string \"https://deno.com/kv\""),
        new Sample("int", 42, Integer.class, "number 42"),
        new Sample("long", 9_007_199_254_740_991L, Long.class, "number 9007199254740991"),
        new Sample("BigInteger", new BigInteger("123456789012345678901234567890"),
            BigInteger.class, "bigint 123456789012345678901234567890"),
        new Sample("byte[]", new byte[] {1, 2, 3}, byte[].class, "Uint8Array [1,2,3]"),
        new Sample("record", new Todo(ID, "write", Status.OPEN, LocalDate.of(2024, 2, 1),
            Optional.empty(), List.of("home")), Todo.class,
            "object {\"id\":\"0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10\",\"title\":\"write\","
                + "\"status\":\"OPEN\",\"due\":\"2024-02-01\",\"doneAt\":null,"
                + "\"tags\":[\"home\"]}"),
        new Sample("JavaBean", TodoBean.of("read", true), TodoBean.class,
            "object {\"done\":true,\"title\":\"read\"}"),
        new Sample("List of records", List.of(new Todo(ID, "a", Status.DONE,
            LocalDate.EPOCH, Optional.of(Instant.parse("2024-01-31T12:00:00Z")), List.of())),
            new TypeRef<List<Todo>>() {}.type(),
            "array [{\"id\":\"0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10\",\"title\":\"a\","
                + "\"status\":\"DONE\",\"due\":\"1970-01-01\","
                + "\"doneAt\":\"2024-01-31T12:00:00.000Z\",\"tags\":[]}]"),
        new Sample("Map of dates", Map.of("start", LocalDate.of(2024, 1, 1)),
            new TypeRef<Map<String, LocalDate>>() {}.type(),
            "object {\"start\":\"2024-01-01\"}"),
        new Sample("Set of enums", Set.of(Status.OPEN), new TypeRef<Set<Status>>() {}.type(),
            "Set [\"OPEN\"]"),
        new Sample("ValueCodec", new Money(new BigDecimal("12.50"), "EUR"), Money.class,
            "string \"12.50 EUR\""),
        new Sample("sealed interface", List.of(new Circle(1.5), new Square(2)),
            new TypeRef<List<Shape>>() {}.type(),
            "array [{\"type\":\"Circle\",\"radius\":1.5},{\"type\":\"Square\",\"side\":2}]"));
  }
}
