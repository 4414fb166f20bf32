package dev.kvasir.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.mapping.TypeRef;
import dev.kvasir.mapping.ValueMapper;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** JacksonCodec on a real SQLite file and in memory: Jackson's annotations decide the shape. */
class JacksonCodecTest {
  @TempDir
  Path dir;

  /** An order as a Jackson user writes it: a renamed property, an ignored one, java.time. */
  record Order(@JsonProperty("order_id") UUID id, LocalDate placed, List<Line> lines,
      BigDecimal total, Map<String, Object> attributes, @JsonIgnore String cached) {
    Order {
      cached = null;
    }
  }

  record Line(String sku, int quantity) {}

  /** A class with no setters, built through its creator. */
  static final class Customer {
    private final String name;
    private final Shape favourite;

    @JsonCreator
    Customer(@JsonProperty("name") String name, @JsonProperty("favourite") Shape favourite) {
      this.name = name;
      this.favourite = favourite;
    }

    public String getName() {
      return name;
    }

    public Shape getFavourite() {
      return favourite;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Customer c && c.name.equals(name) && c.favourite.equals(favourite);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, favourite);
    }
  }

  /** Polymorphism by a type property, which only Jackson's annotations describe. */
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
  @JsonSubTypes({@JsonSubTypes.Type(value = Circle.class, name = "circle"),
      @JsonSubTypes.Type(value = Square.class, name = "square")})
  interface Shape {}

  record Circle(double radius) implements Shape {}

  record Square(double side) implements Shape {}

  record Event(String name, Instant at) {}

  private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

  private static final ValueMapper MAPPER = ValueMapper.defaults()
      .with(JacksonCodec.of(JSON, Order.class, Customer.class, Shape.class, Event.class));

  private static final Order ORDER = new Order(
      UUID.fromString("0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10"), LocalDate.of(2024, 1, 31),
      List.of(new Line("tea", 2), new Line("cup", 1)), new BigDecimal("12.50"),
      new LinkedHashMap<>(Map.of("gift", true, "count", 3)), null);

  private Kv open(String engine) {
    String location = engine.equals("sqlite") ? dir.resolve("shop.sqlite3").toString()
        : ":memory:";
    return Kv.builder(location).mapper(MAPPER).open();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void readsBackEqualWhatItWrote(String engine) {
    try (Kv kv = open(engine)) {
      Customer customer = new Customer("Ada", new Circle(1.5));
      kv.set(KvKey.of("order", 1), ORDER);
      kv.set(KvKey.of("customer", 1), customer);
      kv.set(KvKey.of("orders"), List.of(ORDER, ORDER));

      assertThat(kv.get(KvKey.of("order", 1)).value(Order.class)).isEqualTo(ORDER);
      assertThat(kv.get(KvKey.of("customer", 1)).value(Customer.class)).isEqualTo(customer);
      assertThat(kv.get(KvKey.of("orders")).value(new TypeRef<List<Order>>() {}))
          .containsExactly(ORDER, ORDER);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void writesWhatJacksonWouldWriteAsJson(String engine) {
    try (Kv kv = open(engine)) {
      kv.set(KvKey.of("order", 1), ORDER);
      kv.set(KvKey.of("customer", 1), new Customer("Ada", new Square(2)));

      // The plain JS values Deno reads: Jackson's names, its date format, no ignored property.
      assertThat(kv.get(KvKey.of("order", 1)).value()).isEqualTo(Map.of(
          "order_id", "0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10", "placed", "2024-01-31",
          "lines", List.of(Map.of("sku", "tea", "quantity", 2.0),
              Map.of("sku", "cup", "quantity", 1.0)),
          "total", "12.50", "attributes", Map.of("gift", true, "count", 3.0)));
      assertThat(kv.get(KvKey.of("customer", 1)).value()).isEqualTo(Map.of(
          "name", "Ada", "favourite", Map.of("kind", "square", "side", 2.0)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void readsDatesOthersWroteThroughJacksonsTimeModule(String engine) {
    try (Kv kv = open(engine)) {
      // A JS Date, as Deno writes one: Jackson reads it from its ISO-8601 form.
      Instant at = Instant.parse("2024-01-31T12:00:00.123Z");
      kv.set(KvKey.of("event"), Map.of("name", "launch", "at", at));

      assertThat(kv.get(KvKey.of("event")).value(Event.class)).isEqualTo(new Event("launch", at));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void leavesOtherTypesToKvasirsOwnMapping(String engine) {
    try (Kv kv = open(engine)) {
      UUID id = UUID.randomUUID();
      kv.set(KvKey.of("id"), id);
      kv.set(KvKey.of("line"), new Line("tea", 2));

      assertThat(kv.get(KvKey.of("id")).value(UUID.class)).isEqualTo(id);
      assertThat(kv.get(KvKey.of("line")).value(Line.class)).isEqualTo(new Line("tea", 2));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void failsWithTheKvasirErrorNamingTheType(String engine) {
    try (Kv kv = open(engine)) {
      kv.set(KvKey.of("not an order"), "text");

      assertThatThrownBy(() -> kv.get(KvKey.of("not an order")).value(Order.class))
          .isInstanceOf(KvTypeException.class)
          .hasMessageContaining("value: ")
          .hasMessageContaining("Jackson cannot read " + Order.class.getName());
      Order tooBig = new Order(ORDER.id(), ORDER.placed(), List.of(), BigDecimal.ONE,
          Map.of("n", (1L << 60) + 1), null);
      assertThatThrownBy(() -> kv.set(KvKey.of("order", 2), tooBig))
          .isInstanceOf(KvTypeException.class);
      assertThat(kv.get(KvKey.of("order", 2)).versionstamp()).isNull();
    }
  }

  @org.junit.jupiter.api.Test
  @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // it ran without end
  void refusesAValueThatContainsItself_orThatExpandsWithoutEnd_asJsonWould() {
    try (Kv kv = open("memory")) {
      Map<String, Object> loop = new LinkedHashMap<>();
      loop.put("name", "loop");
      loop.put("at", loop);
      kv.set(KvKey.of("loop"), loop);
      assertThatThrownBy(() -> kv.get(KvKey.of("loop")).value(Event.class))
          .isInstanceOf(KvTypeException.class)
          .hasMessageContaining("the value contains itself (a cycle)");
      // 40 levels, each referring twice to the next: JSON would hold 2^40 copies.
      List<Object> level = List.of();
      for (int i = 0; i < 40; i++) {
        level = List.of(level, level);
      }
      kv.set(KvKey.of("wide"), Map.of("name", level));
      assertThatThrownBy(() -> kv.get(KvKey.of("wide")).value(Event.class))
          .isInstanceOf(KvTypeException.class)
          .hasMessageContaining("shared objects expand past 1048576 JSON nodes");
    }
  }

  @org.junit.jupiter.api.Test
  void refusesACodecForNoType() {
    assertThatThrownBy(() -> JacksonCodec.of(JSON))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no types given");
  }
}
