package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.value.JsAdapter;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How Java objects become values Deno reads and back (docs/mapping.md): what the JS value model
 * holds as it is (docs/values.md §7), records as objects, and beyond it enums by name, {@code
 * UUID}s, {@code BigDecimal}s and {@code java.time} values as text (instants of whole
 * milliseconds stay JS Dates), {@code Optional}s as their content or null, JavaBeans as
 * objects, and the user's own types through {@link ValueCodec}s. What is written reads back
 * equal: {@code read(write(x)).equals(x)}.
 *
 * <pre>{@code
 * ValueMapper mapper = ValueMapper.defaults().with(ValueCodec.of(Money.class, …));
 * Kv kv = Kv.builder("app.sqlite3").mapper(mapper).open();
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class ValueMapper implements JsAdapter {
  private static final ValueMapper DEFAULTS = new ValueMapper(List.of());

  private final List<ValueCodec> codecs;
  private final ClassValue<ValueCodec> codecByClass = new ClassValue<>() {
    @Override
    protected ValueCodec computeValue(Class<?> type) {
      for (ValueCodec codec : codecs) {
        if (codec.handles(type)) {
          return codec;
        }
      }
      return null;
    }
  };

  private ValueMapper(List<ValueCodec> codecs) {
    this.codecs = List.copyOf(codecs);
  }

  /** Kvasir's own rules, with no codec. */
  public static ValueMapper defaults() {
    return DEFAULTS;
  }

  /** A mapper that asks {@code codec} first, then the codecs and rules of this one. */
  public ValueMapper with(ValueCodec codec) {
    List<ValueCodec> more = new ArrayList<>(codecs.size() + 1);
    more.add(Objects.requireNonNull(codec, "codec"));
    more.addAll(codecs);
    return new ValueMapper(more);
  }

  /**
   * A value of the JS value model for {@code value}, an object the model does not hold: a
   * codec's, a type of Kvasir's own, or a JavaBean's properties. The V8 writer asks for each
   * such object inside a value, and again for what comes back.
   *
   * @throws KvTypeException naming the type if nothing maps it
   */
  @Override
  public @Nullable Object adapt(Object value) {
    ValueCodec codec = codecByClass.get(value.getClass());
    if (codec != null) {
      return codec.write(value);
    }
    Object mapped = JavaTypes.write(value);
    if (mapped != value) {
      return mapped;
    }
    Beans.Bean bean = Beans.of(value.getClass());
    if (bean != null) {
      return Beans.write(value, bean);
    }
    if (value instanceof Collection<?> c) { // neither list nor set: a queue, a deque
      return new ArrayList<>(c);
    }
    throw new KvTypeException(value.getClass().getName() + " is not serializable: it is no"
        + " type of the JS value model, record or JavaBean (a public class with a public"
        + " no-argument constructor and get/set pairs), and no ValueCodec handles it");
  }

  /** Whether a codec handles records of {@code type}, which the V8 writer otherwise writes. */
  @Override
  public boolean overrides(Class<?> type) {
    return codecByClass.get(type) != null;
  }

  /**
   * {@code js}, a value as read (the JS value model), as {@code type}.
   *
   * @throws KvTypeException naming the path inside the value that does not fit
   */
  public <T> @Nullable T read(@Nullable Object js, Class<T> type) {
    @SuppressWarnings("unchecked")
    T out = (T) Reader.read(this, js, type);
    return out;
  }

  /**
   * {@code js} as the generic type {@code type} captures: {@code new TypeRef<List<User>>()
   * {}}.
   *
   * @throws KvTypeException naming the path inside the value that does not fit
   */
  public <T> @Nullable T read(@Nullable Object js, TypeRef<T> type) {
    @SuppressWarnings("unchecked")
    T out = (T) Reader.read(this, js, type.type());
    return out;
  }

  /**
   * {@code js} as {@code type}, for a codec reading the values inside its own.
   *
   * @throws KvTypeException naming the path inside the value that does not fit
   */
  public @Nullable Object read(@Nullable Object js, Type type) {
    return Reader.read(this, js, type);
  }

  /** The codec that handles {@code type}, or null. */
  ValueCodec codecFor(Class<?> type) {
    return codecs.isEmpty() ? null : codecByClass.get(type);
  }

  @Override
  public String toString() {
    return "ValueMapper" + codecs;
  }
}
