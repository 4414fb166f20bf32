package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An interface or abstract class whose implementations are records or JavaBeans, written as
 * objects with one more property, the tag, that names the implementation: {@code {type:
 * "Circle", radius: 1.5}}, a discriminated union as TypeScript writes one (docs/mapping.md §5).
 * {@link Reader} reads such objects through {@link #classFor} and its own record and bean
 * rules, so that paths in errors and shared objects work as for any other part of the value.
 */
final class TaggedCodec implements ValueCodec {
  private final Class<?> base;
  private final String tag;
  private final Map<String, Class<?>> classByName;
  private final Map<Class<?>, String> nameByClass = new LinkedHashMap<>();

  TaggedCodec(Class<?> base, String tag, Map<String, ? extends Class<?>> classByName) {
    this.base = Objects.requireNonNull(base, "type");
    this.tag = Objects.requireNonNull(tag, "tagProperty");
    if (tag.isEmpty()) {
      throw new IllegalArgumentException("the tag property's name is empty");
    }
    if (classByName.isEmpty()) {
      throw new IllegalArgumentException("no class to tag for " + base.getName());
    }
    this.classByName = new LinkedHashMap<>(classByName);
    classByName.forEach((name, c) -> {
      check(Objects.requireNonNull(name, "a tag"), Objects.requireNonNull(c, "a class"));
      String before = nameByClass.put(c, name);
      if (before != null) {
        throw new IllegalArgumentException(c.getName() + " is tagged twice, \"" + before
            + "\" and \"" + name + "\"");
      }
    });
  }

  /** The tags of a sealed type: its records' and beans' simple names, through sealed levels. */
  static Map<String, Class<?>> permitted(Class<?> sealed) {
    if (!sealed.isSealed()) {
      throw new IllegalArgumentException(sealed.getName() + " is not sealed: name its classes"
          + " with ValueCodec.tagged(type, tagProperty, Map.of(\"name\", Impl.class, …))");
    }
    Map<String, Class<?>> byName = new LinkedHashMap<>();
    List<Class<?>> pending = new ArrayList<>(List.of(sealed.getPermittedSubclasses()));
    while (!pending.isEmpty()) {
      Class<?> c = pending.remove(0);
      boolean abstractType = c.isInterface() || Modifier.isAbstract(c.getModifiers());
      if (abstractType && c.isSealed()) {
        pending.addAll(List.of(c.getPermittedSubclasses()));
        continue;
      }
      if (abstractType) {
        throw new IllegalArgumentException(c.getName() + " is non-sealed, so its classes cannot"
            + " be listed: name them with ValueCodec.tagged(type, tagProperty, Map.of(…))");
      }
      Class<?> same = byName.put(c.getSimpleName(), c);
      if (same != null) {
        throw new IllegalArgumentException(same.getName() + " and " + c.getName() + " have the"
            + " same simple name, which would tag both: name them with"
            + " ValueCodec.tagged(type, tagProperty, Map.of(…))");
      }
    }
    return byName;
  }

  private void check(String name, Class<?> c) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException(c.getName() + " has an empty tag");
    }
    if (!base.isAssignableFrom(c)) {
      throw new IllegalArgumentException(c.getName() + " is not a " + base.getName());
    }
    List<String> properties;
    if (c.isRecord()) {
      properties = List.of(Records.of(c).names());
    } else if (Beans.of(c) != null) {
      properties = Beans.of(c).properties().stream().map(Beans.Property::name).toList();
    } else if (c.isEnum()) {
      throw new IllegalArgumentException(c.getName() + " is neither a record nor a JavaBean but"
          + " an enum, which has no object to add a tag to: a case without data is a record"
          + " without components (record " + c.getSimpleName() + "() implements "
          + base.getSimpleName() + " {}), written as {" + tag + ": \"" + name + "\"}");
    } else {
      throw new IllegalArgumentException(c.getName() + " is neither a record nor a JavaBean (a"
          + " public class with a public no-argument constructor and get/set pairs), so it has"
          + " no object to add a tag to: give it a ValueCodec of its own");
    }
    if (properties.contains(tag)) {
      throw new IllegalArgumentException(c.getName() + " has a property named \"" + tag
          + "\" already, which the tag would hide: choose another tag property");
    }
  }

  @Override
  public boolean handles(Class<?> type) {
    return base.isAssignableFrom(type);
  }

  @Override
  public Object write(Object value) {
    String name = nameByClass.get(value.getClass());
    if (name == null) {
      throw new KvTypeException(value.getClass().getName() + " is no tagged class of "
          + base.getSimpleName() + " (" + String.join(", ", namesUnder(base))
          + "): add it to the codec");
    }
    Map<String, @Nullable Object> object = new LinkedHashMap<>();
    object.put(tag, name);
    object.putAll(value instanceof Record ? Records.write(value)
        : Beans.write(value, Beans.of(value.getClass())));
    return object;
  }

  @Override
  public @Nullable Object read(@Nullable Object js, Type type, ValueMapper mapper) {
    return Reader.readTagged(mapper, js, type, this);
  }

  /** The property that names the class. */
  String tag() {
    return tag;
  }

  /**
   * The class an object whose tag is {@code name} is read as, when read as {@code type}.
   *
   * @param name the tag's value, null when the object has none
   * @return the class; {@code type} itself for an object without a tag read as a tagged class
   * @throws KvTypeException saying why none fits, without the path, which the reader adds
   */
  Class<?> classFor(@Nullable Object name, Class<?> type) {
    if (name == null) {
      if (nameByClass.containsKey(type)) {
        return type; // written as that class by itself, before it was tagged
      }
      throw new KvTypeException("no property \"" + tag + "\" to say which " + type.getSimpleName()
          + " this is (" + String.join(", ", namesUnder(type)) + ")");
    }
    Class<?> c = name instanceof String s ? classByName.get(s) : null;
    if (c == null) {
      throw new KvTypeException("\"" + tag + "\" is " + Reader.shown(name) + ", which names no "
          + type.getSimpleName() + " (" + String.join(", ", namesUnder(type)) + ")");
    }
    if (!type.isAssignableFrom(c)) {
      throw new KvTypeException("\"" + tag + "\" is \"" + name + "\", a " + c.getSimpleName()
          + ", which is not a " + type.getName());
    }
    return c;
  }

  private List<String> namesUnder(Class<?> type) {
    List<String> names = new ArrayList<>();
    nameByClass.forEach((c, name) -> {
      if (type.isAssignableFrom(c)) {
        names.add('"' + name + '"');
      }
    });
    return names;
  }

  @Override
  public String toString() {
    return "ValueCodec[" + base.getName() + " tagged by " + tag + "]";
  }
}
