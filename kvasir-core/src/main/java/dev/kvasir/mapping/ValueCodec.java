package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How values of the user's own types are written and read (docs/mapping.md §3), for the types
 * Kvasir does not map itself or maps otherwise than wanted. A codec is given to a {@link
 * ValueMapper} ({@code ValueMapper.defaults().with(codec)}), which asks it before its own rules.
 *
 * <pre>{@code
 * ValueCodec money = ValueCodec.of(Money.class, m -> m.amount() + " " + m.currency(),
 *     js -> Money.parse((String) js));
 * }</pre>
 */
public interface ValueCodec {
  /** Whether this codec writes values of {@code type} and reads them back. */
  boolean handles(Class<?> type);

  /**
   * {@code value}, of a type this codec handles, as a value of the JS value model (docs/values.md
   * §7): a string, a number, a map, a list, … Objects inside what it returns are mapped in turn.
   *
   * @throws KvTypeException if it cannot be written
   */
  @Nullable Object write(Object value);

  /**
   * The value of {@code type} that {@code js}, as read (the JS value model), stands for. {@code
   * mapper} reads the values inside it as other types.
   *
   * @throws KvTypeException if {@code js} does not fit
   */
  @Nullable Object read(@Nullable Object js, Type type, ValueMapper mapper);

  /** A codec for the one class {@code type} (not its subclasses) from two functions. */
  static <T> ValueCodec of(Class<T> type, Function<? super T, ?> write,
      Function<@Nullable Object, ? extends T> read) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(write, "write");
    Objects.requireNonNull(read, "read");
    return new ValueCodec() {
      @Override
      public boolean handles(Class<?> c) {
        return c == type;
      }

      @Override
      public @Nullable Object write(Object value) {
        return write.apply(type.cast(value));
      }

      @Override
      public @Nullable Object read(@Nullable Object js, Type t, ValueMapper mapper) {
        return read.apply(js);
      }

      @Override
      public String toString() {
        return "ValueCodec[" + type.getName() + "]";
      }
    };
  }

  /**
   * A codec for the sealed interface or abstract class {@code type} (docs/mapping.md §5): each
   * of its records and JavaBeans, through sealed levels, is written as an object with one more
   * property, {@code tagProperty}, whose value is the class's simple name, and read back as the
   * class that name gives. Deno sees a discriminated union:
   *
   * <pre>{@code
   * sealed interface Shape permits Circle, Square {}
   * ValueMapper mapper = ValueMapper.defaults().with(ValueCodec.sealed(Shape.class, "type"));
   * kv.set(key, List.of(new Circle(1.5)));   // Deno: [{type: "Circle", radius: 1.5}]
   * }</pre>
   *
   * @throws IllegalArgumentException if {@code type} is not sealed, a class it permits is
   *     neither a record nor a bean or has a property named {@code tagProperty}, or two share a
   *     simple name (then name them with {@link #tagged})
   */
  static <T> ValueCodec sealed(Class<T> type, String tagProperty) {
    return new TaggedCodec(type, tagProperty, TaggedCodec.permitted(type));
  }

  /**
   * A codec for the interface or abstract class {@code type}, sealed or not, whose
   * implementations are the records and JavaBeans {@code classes} names: each is written as an
   * object with one more property, {@code tagProperty}, whose value is its name in {@code
   * classes}, and read back as the class that name gives. Writing an implementation that
   * {@code classes} lacks is an error.
   *
   * <pre>{@code
   * ValueCodec.tagged(Shape.class, "kind", Map.of("circle", Circle.class, "square", Square.class))
   * }</pre>
   *
   * @throws IllegalArgumentException if a class is not a {@code type}, is neither a record nor
   *     a bean, has a property named {@code tagProperty} or is named twice
   */
  static <T> ValueCodec tagged(Class<T> type, String tagProperty,
      Map<String, Class<? extends T>> classes) {
    return new TaggedCodec(type, tagProperty, new TreeMap<>(classes));
  }
}
