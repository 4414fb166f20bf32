package dev.kvasir.mapping;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * The empty collection or map a JS array, set, object or map is read into, of the type the
 * reader asked for (docs/mapping.md §4): an interface gets the JDK's usual implementation
 * ({@code List} an {@code ArrayList}, {@code SortedMap} a {@code TreeMap}, {@code Deque} an
 * {@code ArrayDeque}), {@code EnumSet} and {@code EnumMap} get their type argument's enum, and
 * any other class its public no-argument constructor. Before, every one was read as an {@code
 * ArrayList}, {@code LinkedHashSet} or {@code LinkedHashMap}, so a record with a {@code TreeMap}
 * or {@code EnumSet} component could be written but never read back.
 */
final class Containers {
  /** What an interface is read as: the first of these it accepts, in this order. */
  private static final List<Implementation> COLLECTIONS = List.of(
      new Implementation(ArrayList.class, ArrayList::new),
      new Implementation(LinkedHashSet.class, LinkedHashSet::new),
      new Implementation(TreeSet.class, TreeSet::new),
      new Implementation(ArrayDeque.class, ArrayDeque::new));
  private static final List<Implementation> MAPS = List.of(
      new Implementation(LinkedHashMap.class, LinkedHashMap::new),
      new Implementation(TreeMap.class, TreeMap::new),
      new Implementation(ConcurrentHashMap.class, ConcurrentHashMap::new),
      new Implementation(ConcurrentSkipListMap.class, ConcurrentSkipListMap::new));

  /** A JDK class and how to make an empty one. */
  private record Implementation(Class<?> type, Supplier<?> make) {}

  private Containers() {}

  /**
   * An empty collection of {@code raw} (a {@code Collection} or {@code Iterable}).
   *
   * @param element the element type, which names the enum of an {@code EnumSet}
   * @throws IllegalArgumentException saying why none can be made
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Collection<Object> collection(Class<?> raw, Type element) {
    if (raw == EnumSet.class) {
      return (Collection<Object>) EnumSet.noneOf((Class) enumOf(element, "EnumSet"));
    }
    return (Collection<Object>) firstFitting(raw, COLLECTIONS);
  }

  /**
   * An empty map of {@code raw}.
   *
   * @param key the key type, which names the enum of an {@code EnumMap}
   * @throws IllegalArgumentException saying why none can be made
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Map<Object, Object> map(Class<?> raw, Type key) {
    if (raw == EnumMap.class) {
      return new EnumMap(enumOf(key, "EnumMap"));
    }
    return (Map<Object, Object>) firstFitting(raw, MAPS);
  }

  /** A new instance of the first implementation {@code raw} accepts, else of {@code raw}. */
  private static Object firstFitting(Class<?> raw, List<Implementation> implementations) {
    for (Implementation i : implementations) {
      if (raw.isAssignableFrom(i.type())) { // asked of the class: nothing made to be dropped
        return i.make().get();
      }
    }
    return construct(raw);
  }

  private static Class<?> enumOf(Type type, String container) {
    Type raw = type instanceof ParameterizedType p ? p.getRawType() : type;
    if (raw instanceof Class<?> c && c.isEnum()) {
      return c;
    }
    throw new IllegalArgumentException("an " + container + " is read only with its enum as its"
        + " type argument (new TypeRef<" + container + "<Color>>() {}), not " + type);
  }

  private static Object construct(Class<?> raw) {
    if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
      throw new IllegalArgumentException(raw.getName() + " is abstract, and not one of the"
          + " interfaces Kvasir reads into (docs/mapping.md §4)");
    }
    try {
      return raw.getConstructor().newInstance();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(raw.getName()
          + " has no public no-argument constructor to read into");
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("new " + raw.getName() + "() failed: " + e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalArgumentException("cannot construct " + raw.getName() + ": " + e);
    }
  }
}
