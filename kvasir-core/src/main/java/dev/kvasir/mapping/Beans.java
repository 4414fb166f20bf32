package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JavaBeans as objects (docs/mapping.md §2): a public class with a public no-argument
 * constructor, whose properties are the pairs of a public getter ({@code getName()}, or {@code
 * isName()} for a {@code boolean}) and a public setter of the same type. They are written in
 * the order of their names and read back through the setters; a property the stored object
 * lacks keeps the constructor's value.
 */
final class Beans {
  /**
   * One read-write property, of the setter's generic type with its superclasses' type variables
   * bound (worked out once, not for each read).
   */
  record Property(String name, Method getter, Method setter, Type type) {}

  /** A bean class's constructor and properties; null for a class that is not a bean. */
  record Bean(Constructor<?> constructor, List<Property> properties) {}

  private static final ClassValue<Bean> BEANS = new ClassValue<>() {
    @Override
    protected Bean computeValue(Class<?> type) {
      return introspect(type);
    }
  };

  private Beans() {}

  /** The bean {@code type} is, or null. */
  static Bean of(Class<?> type) {
    return BEANS.get(type);
  }

  /** The bean's properties as an object, in name order. */
  static Map<String, Object> write(Object bean, Bean shape) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Property p : shape.properties()) {
      try {
        out.put(p.name(), p.getter().invoke(bean));
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new KvTypeException(bean.getClass().getName() + "." + p.getter().getName()
            + "() failed: " + (e.getCause() != null ? e.getCause() : e));
      }
    }
    return out;
  }

  private static Bean introspect(Class<?> type) {
    // A Number is read as a number (Reader.number), never through setters: an AtomicLong,
    // whose getPlain/setPlain pair looks like a property, would be written as an object that
    // cannot be read back.
    if (Number.class.isAssignableFrom(type)
        || !Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers())
        || type.isInterface() || type.isArray() || type.isEnum() || type.isRecord()
        || type.getEnclosingClass() != null && !Modifier.isStatic(type.getModifiers())) {
      return null;
    }
    Constructor<?> constructor;
    try {
      constructor = type.getConstructor();
    } catch (NoSuchMethodException e) {
      return null;
    }
    TypeArguments inherited = TypeArguments.inherited(type);
    List<Property> properties = new ArrayList<>();
    for (Method getter : type.getMethods()) {
      String name = propertyName(getter);
      if (name == null) {
        continue;
      }
      String setterName = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
      try {
        Method setter = type.getMethod(setterName, getter.getReturnType());
        if (!Modifier.isStatic(setter.getModifiers())) {
          properties.add(new Property(name, getter, setter,
              inherited.in(setter.getGenericParameterTypes()[0])));
        }
      } catch (NoSuchMethodException readOnly) {
        // not a read-write property
      }
    }
    if (properties.isEmpty()) {
      return null;
    }
    properties.sort(Comparator.comparing(Property::name));
    return new Bean(constructor, List.copyOf(properties));
  }

  /** {@code name} for {@code getName()} and {@code boolean isName()}, else null. */
  private static String propertyName(Method m) {
    if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers())
        || m.getDeclaringClass() == Object.class) {
      return null;
    }
    String n = m.getName();
    String rest;
    if (n.startsWith("get") && n.length() > 3 && m.getReturnType() != void.class) {
      rest = n.substring(3);
    } else if (n.startsWith("is") && n.length() > 2 && m.getReturnType() == boolean.class) {
      rest = n.substring(2);
    } else {
      return null;
    }
    return Character.toLowerCase(rest.charAt(0)) + rest.substring(1);
  }
}
