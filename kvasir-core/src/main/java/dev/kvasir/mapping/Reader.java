package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.internal.LargeStack;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.Undefined;
import java.lang.reflect.Array;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a value as read (the JS value model) as a Java type (docs/mapping.md): the user's
 * codecs first, then records and beans from objects, numbers exactly, enums by name, the
 * types {@link JavaTypes} writes as text from it, {@code Optional}s from a value or null, and
 * generic collections element by element. Errors name the path inside the value. One instance
 * per value read; not thread-safe.
 */
final class Reader {
  /**
   * Levels read on the caller's thread; deeper values are read on a {@link LargeStack}
   * (docs/values.md §8). Each level takes several frames (a record's components, a list's
   * elements, the conversion of a leaf); a linked list of records overflowed a 1 MiB stack
   * somewhere between 1 000 and 3 000 levels.
   */
  private static final int INLINE_DEPTH = 256;

  private final ValueMapper mapper;
  private final int maxDepth;
  private int depth;
  /**
   * What each JS object of the value became, per type it was read as: an object the value
   * refers to twice is read once and shared, as V8Writer writes a shared one once. Without it,
   * a value of a few hundred bytes whose objects each refer twice to the next expanded
   * exponentially (docs/mapping.md §7).
   */
  private final Map<Made, Object> made = new HashMap<>();
  /** The objects being read, whose result is not known yet: met again, they are a cycle. */
  private final Set<Made> reading = new HashSet<>();

  private Reader(ValueMapper mapper, int maxDepth) {
    this.mapper = mapper;
    this.maxDepth = maxDepth;
  }

  /** {@code value}, as read, as {@code type}. */
  static Object read(ValueMapper mapper, Object value, Type type) {
    return onAnyStack(mapper, reader -> reader.read(value, type, Where.VALUE));
  }

  /** {@code value}, as read, as {@code type}, which {@code codec} handles. */
  static Object readTagged(ValueMapper mapper, Object value, Type type, TaggedCodec codec) {
    return onAnyStack(mapper, reader -> reader.tagged(value, type, codec, Where.VALUE));
  }

  /** {@code reading} by a new reader: on this thread, or on a large stack for a deep value. */
  private static Object onAnyStack(ValueMapper mapper, Function<Reader, Object> reading) {
    try {
      return reading.apply(new Reader(mapper, INLINE_DEPTH));
    } catch (LargeStack.Deeper | StackOverflowError e) {
      // Unbounded on the large stack: the V8 reader has bounded the value's depth already.
      return LargeStack.call(() -> reading.apply(new Reader(mapper, Integer.MAX_VALUE)));
    }
  }

  private Object read(Object value, Type type, Where path) {
    if (++depth > maxDepth) {
      throw LargeStack.Deeper.SIGNAL;
    }
    Made key = isJsObject(value) ? new Made(value, type) : null;
    Object read;
    if (key == null) {
      read = readType(value, type, path);
    } else if (made.containsKey(key)) {
      read = made.get(key);
    } else {
      if (!reading.add(key)) {
        throw cycle(path, type);
      }
      read = readType(value, type, path);
      reading.remove(key);
      made.put(key, read);
    }
    depth--;
    return read;
  }

  /**
   * Records {@code out} as what {@code js} becomes as {@code type} before its contents are read:
   * a JavaBean, a list, a map or an array can then contain itself, as the JS object did.
   */
  private void madeBeforeItsContents(Object js, Type type, Object out) {
    Made key = new Made(js, type);
    reading.remove(key);
    made.put(key, out);
  }

  private static boolean isJsObject(Object value) {
    return value instanceof Map<?, ?> || value instanceof Collection<?> || value instanceof JsMap
        || value instanceof JsSet;
  }

  private static KvTypeException cycle(Where path, Type type) {
    return new KvTypeException(path + ": the value contains itself here (a cycle), which "
        + type.getTypeName() + " cannot hold: a record, an Optional, a set or a codec's type is"
        + " made from what it contains; read this part as a JavaBean, a List, a Map or Object");
  }

  /**
   * A JS object and the type it is read as. The object is compared by identity: equal objects
   * are not the same object, and comparing them by value would not end on a cycle.
   */
  private static final class Made {
    private final Object js;
    private final Type type;

    Made(Object js, Type type) {
      this.js = js;
      this.type = type;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Made m && m.js == js && m.type.equals(type);
    }

    @Override
    public int hashCode() {
      return 31 * System.identityHashCode(js) + type.hashCode();
    }
  }

  private Object readType(Object value, Type type, Where path) {
    if (type instanceof WildcardType w) {
      return read(value, w.getUpperBounds()[0], path);
    }
    if (type instanceof TypeVariable<?> v) {
      return read(value, v.getBounds()[0], path);
    }
    if (type instanceof GenericArrayType g) {
      return array(value, Object.class, g.getGenericComponentType(), type, path);
    }
    if (type instanceof ParameterizedType p) {
      return generic(value, (Class<?>) p.getRawType(), p.getActualTypeArguments(), type, path);
    }
    return plain(value, (Class<?>) type, TypeArguments.NONE, path);
  }

  /** {@code value} as the class {@code c}, whose type variables {@code arguments} bind. */
  private Object plain(Object value, Class<?> c, TypeArguments arguments, Where path) {
    ValueCodec codec = mapper.codecFor(c);
    if (codec != null) {
      return fromCodec(codec, value, c, path);
    }
    if (c == OptionalInt.class || c == OptionalLong.class || c == OptionalDouble.class) {
      return optionalNumber(value, c, path);
    }
    if (c == Optional.class) {
      return generic(value, Optional.class, new Type[] {Object.class}, c, path);
    }
    if (value == null || value == Undefined.INSTANCE) {
      if (c.isPrimitive()) {
        throw fail(path, value, c);
      }
      return c == Undefined.class ? value : null;
    }
    if (c.isPrimitive() || Number.class.isAssignableFrom(c) && c != Number.class
        || c == KvU64.class || c == Character.class) {
      return number(value, c, path);
    }
    if (c.isInstance(value)) {
      return value;
    }
    if (value instanceof Instant i && (c == java.util.Date.class)) {
      return JavaTypes.fromInstant(i, c);
    }
    if (value instanceof String s) {
      if (c.isEnum()) {
        return constant(s, c, path);
      }
      if (JavaTypes.fromText(c)) {
        try {
          return JavaTypes.parse(s, c);
        } catch (RuntimeException e) {
          throw new KvTypeException(path + ": \"" + s + "\" is no " + c.getName() + ": "
              + e.getMessage());
        }
      }
    }
    if (value instanceof Map<?, ?> m) {
      if (c.isRecord()) {
        return record(m, c, arguments, path);
      }
      Beans.Bean bean = Beans.of(c);
      if (bean != null) {
        return bean(m, c, bean, arguments, path, c);
      }
    }
    if (c.isArray()) {
      return array(value, c.getComponentType(), c.getComponentType(), c, path);
    }
    // A raw collection or map type (a field of type TreeMap, a class extending ArrayList): its
    // elements as they are.
    if (Map.class.isAssignableFrom(c)) {
      return generic(value, c, new Type[] {Object.class, Object.class}, c, path);
    }
    if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
      return generic(value, c, new Type[] {Object.class}, c, path);
    }
    throw fail(path, value, c);
  }

  private Object fromCodec(ValueCodec codec, Object value, Type type, Where path) {
    if (codec instanceof TaggedCodec tagged) {
      return tagged(value, type, tagged, path);
    }
    try {
      return codec.read(value, type, mapper);
    } catch (KvTypeException e) {
      throw new KvTypeException(path + ": " + e.getMessage());
    } catch (RuntimeException e) {
      throw new KvTypeException(path + ": " + codec + " cannot read " + shown(value) + ": " + e);
    }
  }

  /**
   * An object whose tag names the record or bean it is read as; the type's arguments ({@code
   * Result<Todo>}) bind that class's variables where its declaration passes them on ({@code
   * record Ok<T>(T value) implements Result<T>}).
   */
  private Object tagged(Object value, Type type, TaggedCodec codec, Where path) {
    if (value == null || value == Undefined.INSTANCE) {
      return null;
    }
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType()
        : (Class<?>) type;
    if (!(value instanceof Map<?, ?> m)) {
      throw fail(path, value, raw);
    }
    Class<?> c;
    try {
      c = codec.classFor(m.get(codec.tag()), raw);
    } catch (KvTypeException e) {
      throw new KvTypeException(path + ": " + e.getMessage());
    }
    TypeArguments arguments = type instanceof ParameterizedType p
        ? TypeArguments.passedOn(c, raw, p.getActualTypeArguments()) : TypeArguments.NONE;
    if (c.isRecord()) {
      return record(m, c, arguments, path);
    }
    return bean(m, c, Beans.of(c), arguments, path, type);
  }

  private static Object constant(String name, Class<?> c, Where path) {
    for (Object constant : c.getEnumConstants()) {
      if (((Enum<?>) constant).name().equals(name)) {
        return constant;
      }
    }
    throw new KvTypeException(path + ": no constant " + name + " in " + c.getName());
  }

  private Object generic(Object value, Class<?> raw, Type[] args, Type type, Where path) {
    ValueCodec codec = mapper.codecFor(raw);
    if (codec != null) {
      return fromCodec(codec, value, type, path);
    }
    if (raw == Optional.class) {
      return value == null || value == Undefined.INSTANCE ? Optional.empty()
          : Optional.of(read(value, args[0], path));
    }
    if (value == null || value == Undefined.INSTANCE) {
      return null;
    }
    if (Map.class.isAssignableFrom(raw)) {
      Iterable<Map.Entry<Object, Object>> entries = entries(value, raw, path);
      Map<Object, Object> out;
      try {
        out = Containers.map(raw, args[0]);
      } catch (IllegalArgumentException e) {
        throw new KvTypeException(path + ": cannot read a map into " + raw.getName() + ": "
            + e.getMessage());
      }
      madeBeforeItsContents(value, type, out);
      for (Map.Entry<?, ?> e : entries) {
        Object key = read(e.getKey(), args[0], path.field("<key>"));
        Object item = read(e.getValue(), args[1], path.field(e.getKey()));
        try {
          out.put(key, item);
        } catch (RuntimeException refused) { // a TreeMap's null key, a ConcurrentHashMap's null
          throw new KvTypeException(path.field(e.getKey()) + ": " + raw.getName()
              + " cannot hold it: " + refused);
        }
      }
      return out;
    }
    if (Collection.class.isAssignableFrom(raw) || raw == Iterable.class) {
      Iterable<?> items = items(value, raw, path);
      Collection<Object> out;
      try {
        out = Containers.collection(raw, args[0]);
      } catch (IllegalArgumentException e) {
        throw new KvTypeException(path + ": cannot read a list or set into " + raw.getName()
            + ": " + e.getMessage());
      }
      if (!(out instanceof Set)) { // a set that held itself would hash itself as it is filled
        madeBeforeItsContents(value, type, out);
      }
      int i = 0;
      for (Object item : items) {
        Where at = path.index(i++);
        Object element = read(item, args[0], at);
        try {
          out.add(element);
        } catch (RuntimeException refused) { // a TreeSet's null, an EnumSet's null
          throw new KvTypeException(at + ": " + raw.getName() + " cannot hold it: " + refused);
        }
      }
      return out;
    }
    // A generic record or bean, such as Page<Todo>: its parts are read as their types say,
    // with the type arguments in place of its type variables.
    return plain(value, raw, TypeArguments.of(raw, args), path);
  }

  private Object array(Object value, Class<?> component, Type elementType, Type type,
      Where path) {
    if (value == null || value == Undefined.INSTANCE) {
      return null;
    }
    if (!(value instanceof List<?> list)) {
      throw fail(path, value, component.arrayType());
    }
    Object array = Array.newInstance(component, list.size());
    madeBeforeItsContents(value, type, array);
    for (int i = 0; i < list.size(); i++) {
      Array.set(array, i, read(list.get(i), elementType, path.index(i)));
    }
    return array;
  }

  private static Iterable<?> items(Object value, Class<?> raw, Where path) {
    if (value instanceof JsSet s) {
      return s;
    }
    if (value instanceof Collection<?> c) {
      return c;
    }
    throw fail(path, value, raw);
  }

  @SuppressWarnings("unchecked")
  private static Iterable<Map.Entry<Object, Object>> entries(Object v, Class<?> raw, Where path) {
    if (v instanceof JsMap m) {
      return m;
    }
    if (v instanceof Map<?, ?> m) {
      return ((Map<Object, Object>) m).entrySet();
    }
    throw fail(path, v, raw);
  }

  private Object record(Map<?, ?> map, Class<?> type, TypeArguments arguments, Where path) {
    Records.Shape shape = Records.of(type);
    Object[] args = new Object[shape.names().length];
    for (int i = 0; i < args.length; i++) {
      String name = shape.names()[i];
      args[i] = read(map.get(name), arguments.in(shape.types()[i]), path.field(name));
    }
    if (shape.unusable() != null) {
      throw new KvTypeException(path + ": cannot construct " + type.getName() + ": "
          + shape.unusable());
    }
    try {
      return shape.constructor().newInstance(args);
    } catch (InvocationTargetException e) {
      throw new KvTypeException(path + ": " + type.getName() + " rejected the value: "
          + e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new KvTypeException(path + ": cannot construct " + type.getName() + ": " + e);
    }
  }

  /** A bean; {@code readAs}, the type it is read as ({@code type} or one it implements). */
  private Object bean(Map<?, ?> map, Class<?> type, Beans.Bean bean, TypeArguments arguments,
      Where path, Type readAs) {
    Object out;
    try {
      out = bean.constructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new KvTypeException(path + ": new " + type.getName() + "() failed: " + e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new KvTypeException(path + ": cannot construct " + type.getName() + ": " + e);
    }
    madeBeforeItsContents(map, readAs, out);
    for (Beans.Property p : bean.properties()) {
      if (!map.containsKey(p.name())) {
        continue; // the constructor's value stays
      }
      Object value = read(map.get(p.name()), arguments.in(p.type()), path.field(p.name()));
      try {
        p.setter().invoke(out, value);
      } catch (InvocationTargetException e) {
        throw new KvTypeException(path.field(p.name()) + ": " + type.getName() + "."
            + p.setter().getName() + " rejected the value: " + e.getCause());
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new KvTypeException(path.field(p.name()) + ": cannot set it: " + e);
      }
    }
    return out;
  }

  private static Object optionalNumber(Object value, Class<?> c, Where path) {
    if (value == null || value == Undefined.INSTANCE) {
      return c == OptionalInt.class ? OptionalInt.empty()
          : c == OptionalLong.class ? OptionalLong.empty() : OptionalDouble.empty();
    }
    if (c == OptionalInt.class) {
      return OptionalInt.of((int) number(value, int.class, path));
    }
    if (c == OptionalLong.class) {
      return OptionalLong.of((long) number(value, long.class, path));
    }
    return OptionalDouble.of((double) number(value, double.class, path));
  }

  private static Object number(Object value, Class<?> c, Where path) {
    if (c == boolean.class || c == Boolean.class) {
      if (value instanceof Boolean) {
        return value;
      }
      throw fail(path, value, c);
    }
    if (c == char.class || c == Character.class) {
      if (value instanceof String s && s.length() == 1) {
        return s.charAt(0);
      }
      throw fail(path, value, c);
    }
    if (value == null || value == Undefined.INSTANCE) {
      throw fail(path, value, c);
    }
    if (c == BigDecimal.class && value instanceof String s) {
      try {
        return new BigDecimal(s);
      } catch (NumberFormatException e) {
        throw fail(path, value, c);
      }
    }
    if (value instanceof Double d) {
      Object quick = quickly(d, c);
      if (quick != null) {
        return quick;
      }
    }
    BigDecimal exact = exact(value);
    if (exact == null) {
      throw fail(path, value, c);
    }
    try {
      if (c == double.class || c == Double.class) {
        if (value instanceof Double) {
          return value;
        }
        double d = exact.doubleValue(); // a bigint beyond a double's range became an infinity
        if (Double.isInfinite(d)) {
          throw fail(path, value, c);
        }
        return d;
      }
      if (c == float.class || c == Float.class) {
        float f = exact.floatValue();
        if (Float.isInfinite(f)) {
          throw fail(path, value, c);
        }
        return f;
      }
      if (c == BigInteger.class) {
        return exact.toBigIntegerExact();
      }
      if (c == BigDecimal.class) {
        return exact;
      }
      if (c == long.class || c == Long.class) {
        return exact.longValueExact();
      }
      if (c == int.class || c == Integer.class) {
        return exact.intValueExact();
      }
      if (c == short.class || c == Short.class) {
        return exact.shortValueExact();
      }
      if (c == byte.class || c == Byte.class) {
        return exact.byteValueExact();
      }
      if (c == KvU64.class) {
        return KvU64.of(exact.toBigIntegerExact());
      }
    } catch (ArithmeticException | IllegalArgumentException | dev.kvasir.base.KvException e) {
      throw fail(path, value, c);
    }
    throw fail(path, value, c);
  }

  /**
   * A JS number as a {@code double} or {@code float} (NaN and the infinities too, which a JS
   * number may be), or as an {@code int} or {@code long} where it is exactly one, without
   * making a {@code BigDecimal} of it; else null, for the exact conversion to decide.
   */
  private static Object quickly(double d, Class<?> c) {
    if (c == double.class || c == Double.class) {
      return d;
    }
    if (c == float.class || c == Float.class) {
      float f = (float) d;
      // Beyond a float's range a finite number became an infinity: not read (docs/mapping.md §1).
      return Float.isInfinite(f) && !Double.isInfinite(d) ? null : f;
    }
    if (c == int.class || c == Integer.class) {
      int i = (int) d;
      return i == d ? i : null; // NaN and infinities are never equal to their cast
    }
    if (c == long.class || c == Long.class) {
      long l = (long) d;
      // 2^63 casts to Long.MAX_VALUE, which as a double is 2^63 again: not exact.
      return l == d && d < 0x1p63 ? l : null;
    }
    return null;
  }

  private static BigDecimal exact(Object value) {
    if (value instanceof Double d) {
      return d.isNaN() || d.isInfinite() ? null : new BigDecimal(d);
    }
    if (value instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (value instanceof KvU64 u) {
      return new BigDecimal(u.toBigInteger());
    }
    if (value instanceof Number n && !(value instanceof BigDecimal)) {
      return new BigDecimal(n.toString());
    }
    return value instanceof BigDecimal b ? b : null;
  }

  private static KvTypeException fail(Where path, Object value, Class<?> target) {
    // An object cannot say which implementation of an interface it was written from.
    boolean abstractTarget = value instanceof Map<?, ?> && !target.isPrimitive()
        && !target.isArray()
        && (target.isInterface() || Modifier.isAbstract(target.getModifiers()));
    return new KvTypeException(path + ": cannot convert " + shown(value) + " to "
        + target.getName() + (abstractTarget ? ", an interface or abstract class, which an object"
            + " is read as only through a ValueCodec, such as ValueCodec.sealed or .tagged,"
            + " which tag each object with its class (docs/mapping.md §5)" : ""));
  }

  static String shown(Object value) {
    return value == null ? "null" : value instanceof String s ? '"' + s + '"'
        : value.getClass().isArray() || value instanceof Collection<?> || value instanceof Map<?, ?>
            ? value.getClass().getSimpleName()
            : value + " (" + value.getClass().getSimpleName() + ")";
  }

  /**
   * Where in the value a part is read, for an error to name ({@code value.items[3].owner}).
   * Made into text only for an error: built for every part read, the text was much of what a
   * read allocated, and for a value nested thousands of levels deep the square of its depth.
   */
  private static final class Where {
    static final Where VALUE = new Where(null, "value", -1);

    private final Where parent;
    private final Object name; // null for an element
    private final int index;

    private Where(Where parent, Object name, int index) {
      this.parent = parent;
      this.name = name;
      this.index = index;
    }

    Where field(Object name) {
      return new Where(this, name, -1);
    }

    Where index(int index) {
      return new Where(this, null, index);
    }

    @Override
    public String toString() {
      List<Where> steps = new ArrayList<>();
      for (Where w = this; w != null; w = w.parent) {
        steps.add(w);
      }
      StringBuilder text = new StringBuilder();
      for (int i = steps.size() - 1; i >= 0; i--) {
        Where w = steps.get(i);
        if (w.parent == null) {
          text.append(w.name);
        } else if (w.name != null) {
          text.append('.').append(w.name);
        } else {
          text.append('[').append(w.index).append(']');
        }
      }
      return text.toString();
    }
  }
}
