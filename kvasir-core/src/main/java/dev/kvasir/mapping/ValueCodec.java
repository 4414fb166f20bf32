package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import java.lang.reflect.Type;
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
}
