package dev.kvasir.jackson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.mapping.ValueCodec;
import dev.kvasir.mapping.ValueMapper;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Maps the application's own types through its Jackson {@link ObjectMapper} (docs/mapping.md
 * §6): what Jackson would write as JSON is written as the same JS object, and read back through
 * the same mapper, so its annotations, modules and settings apply.
 *
 * <pre>{@code
 * ValueMapper mapper = ValueMapper.defaults().with(JacksonCodec.of(objectMapper, Order.class));
 * Kv kv = Kv.builder("shop.sqlite3").mapper(mapper).open();
 * }</pre>
 *
 * Values the codec does not handle keep Kvasir's own mapping. Jackson's tree has no Dates, Maps
 * with keys of other types than strings, Sets or bigints of its own: Deno sees what JSON
 * would give it (numbers, strings, arrays, objects), and values Deno wrote as Dates read as
 * ISO-8601 strings.
 */
public final class JacksonCodec implements ValueCodec {
  private final ObjectMapper objectMapper;
  private final Predicate<Class<?>> handles;
  private final String description;

  private JacksonCodec(ObjectMapper objectMapper, Predicate<Class<?>> handles,
      String description) {
    this.objectMapper = Objects.requireNonNull(objectMapper, "objectMapper");
    this.handles = handles;
    this.description = description;
  }

  /** A codec for {@code types} and their subtypes. */
  public static JacksonCodec of(ObjectMapper objectMapper, Class<?>... types) {
    List<Class<?>> handled = List.of(types);
    if (handled.isEmpty()) {
      throw new IllegalArgumentException("no types given: name the classes Jackson maps");
    }
    return new JacksonCodec(objectMapper,
        c -> handled.stream().anyMatch(t -> t.isAssignableFrom(c)),
        "JacksonCodec" + handled.stream().map(Class::getName).toList());
  }

  /**
   * A codec for the classes {@code handles} accepts: {@code c ->
   * c.getPackageName().startsWith("com.example.model")}.
   */
  public static JacksonCodec matching(ObjectMapper objectMapper,
      Predicate<Class<?>> handles) {
    return new JacksonCodec(objectMapper, Objects.requireNonNull(handles, "handles"),
        "JacksonCodec[" + handles + "]");
  }

  @Override
  public boolean handles(Class<?> type) {
    return handles.test(type);
  }

  @Override
  public @Nullable Object write(Object value) {
    try (TokenBuffer tokens = new TokenBuffer(objectMapper, false)) {
      objectMapper.writeValue(tokens, value);
      try (JsonParser parser = tokens.asParserOnFirstToken()) {
        return JsonTrees.toJs(parser);
      }
    } catch (IOException e) {
      throw new KvTypeException("Jackson cannot write " + value.getClass().getName() + ": "
          + e.getMessage());
    }
  }

  @Override
  public @Nullable Object read(@Nullable Object js, Type type, ValueMapper mapper) {
    JsonNode tree = JsonTrees.fromJs(js, objectMapper.getNodeFactory());
    try {
      return objectMapper.treeToValue(tree, objectMapper.constructType(type));
    } catch (Exception e) {
      throw new KvTypeException("Jackson cannot read " + type.getTypeName() + " from "
          + tree + ": " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
