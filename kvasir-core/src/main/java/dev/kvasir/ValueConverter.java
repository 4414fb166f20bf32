package dev.kvasir;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.Undefined;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts a value as read (the Java value model) to a requested Java type, for {@link
 * KvEntry#value(Class)}: records from objects, integral numbers from integral doubles, and
 * generic collections element by element. Errors name the path inside the value.
 */
final class ValueConverter {
  private ValueConverter() {}

  static <T> T convert(Object value, Class<T> type) {
    @SuppressWarnings("unchecked")
    T out = (T) convert(value, type, "value");
    return out;
  }

  private static Object convert(Object value, Type type, String path) {
    if (type instanceof WildcardType w) {
      return convert(value, w.getUpperBounds()[0], path);
    }
    if (type instanceof ParameterizedType p) {
      return convertGeneric(value, (Class<?>) p.getRawType(), p.getActualTypeArguments(), path);
    }
    if (!(type instanceof Class<?> c)) {
      return value; // a type variable: nothing to convert to
    }
    if (value == null || value == Undefined.INSTANCE) {
      if (c.isPrimitive()) {
        throw fail(path, value, c);
      }
      return c == Undefined.class ? value : null;
    }
    if (c.isPrimitive() || Number.class.isAssignableFrom(c) && c != Number.class
        || c == KvU64.class) {
      return number(value, c, path);
    }
    if (c.isInstance(value)) {
      return value;
    }
    if (c == Date.class && value instanceof Instant i) {
      return Date.from(i);
    }
    if (c.isEnum() && value instanceof String s) {
      for (Object constant : c.getEnumConstants()) {
        if (((Enum<?>) constant).name().equals(s)) {
          return constant;
        }
      }
      throw new KvTypeException(path + ": no constant " + s + " in " + c.getName());
    }
    if (c.isRecord() && value instanceof Map<?, ?> m) {
      return record(m, c, path);
    }
    if (c.isArray() && value instanceof List<?> list) {
      Object array = Array.newInstance(c.getComponentType(), list.size());
      for (int i = 0; i < list.size(); i++) {
        Array.set(array, i, convert(list.get(i), c.getComponentType(), path + "[" + i + "]"));
      }
      return array;
    }
    if (c == Map.class && value instanceof JsMap m) {
      return convertGeneric(m, Map.class, new Type[] {Object.class, Object.class}, path);
    }
    if ((c == Set.class || c == Collection.class) && value instanceof JsSet s) {
      return convertGeneric(s, Set.class, new Type[] {Object.class}, path);
    }
    throw fail(path, value, c);
  }

  private static Object convertGeneric(Object value, Class<?> raw, Type[] args, String path) {
    if (value == null || value == Undefined.INSTANCE) {
      return null;
    }
    if (Map.class.isAssignableFrom(raw)) {
      Map<Object, Object> out = new LinkedHashMap<>();
      Iterable<Map.Entry<Object, Object>> entries = entries(value, raw, path);
      for (Map.Entry<?, ?> e : entries) {
        Object key = convert(e.getKey(), args[0], path + ".<key>");
        out.put(key, convert(e.getValue(), args[1], path + "." + e.getKey()));
      }
      return out;
    }
    if (Collection.class.isAssignableFrom(raw)) {
      Iterable<?> items;
      if (value instanceof List<?> l) {
        items = l;
      } else if (value instanceof JsSet s) {
        items = s;
      } else if (value instanceof Collection<?> c) {
        items = c;
      } else {
        throw fail(path, value, raw);
      }
      Collection<Object> out = Set.class.isAssignableFrom(raw)
          ? new LinkedHashSet<>() : new ArrayList<>();
      int i = 0;
      for (Object item : items) {
        out.add(convert(item, args[0], path + "[" + i++ + "]"));
      }
      return out;
    }
    return convert(value, raw, path);
  }

  @SuppressWarnings("unchecked")
  private static Iterable<Map.Entry<Object, Object>> entries(Object v, Class<?> raw, String path) {
    if (v instanceof JsMap m) {
      return m;
    }
    if (v instanceof Map<?, ?> m) {
      return ((Map<Object, Object>) m).entrySet();
    }
    throw fail(path, v, raw);
  }

  private static Object record(Map<?, ?> map, Class<?> type, String path) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] args = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent rc = components[i];
      types[i] = rc.getType();
      args[i] = convert(map.get(rc.getName()), rc.getGenericType(), path + "." + rc.getName());
    }
    try {
      Constructor<?> constructor = type.getDeclaredConstructor(types);
      constructor.setAccessible(true);
      return constructor.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new KvTypeException(path + ": " + type.getName() + " rejected the value: "
          + e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new KvTypeException(path + ": cannot construct " + type.getName() + ": " + e);
    }
  }

  private static Object number(Object value, Class<?> c, String path) {
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
    BigDecimal exact = exact(value);
    if (exact == null) {
      throw fail(path, value, c);
    }
    try {
      if (c == double.class || c == Double.class) {
        return value instanceof Double ? value : exact.doubleValue();
      }
      if (c == float.class || c == Float.class) {
        return exact.floatValue();
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
    } catch (ArithmeticException | IllegalArgumentException e) {
      throw fail(path, value, c);
    }
    throw fail(path, value, c);
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

  private static KvTypeException fail(String path, Object value, Class<?> target) {
    String shown = value == null ? "null" : value instanceof String s ? '"' + s + '"'
        : value.getClass().isArray() || value instanceof Collection<?> || value instanceof Map<?, ?>
            ? value.getClass().getSimpleName() : value + " (" + value.getClass().getSimpleName() + ")";
    return new KvTypeException(path + ": cannot convert " + shown + " to " + target.getName());
  }
}
