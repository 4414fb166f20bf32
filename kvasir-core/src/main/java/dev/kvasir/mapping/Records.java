package dev.kvasir.mapping;

import dev.kvasir.base.KvTypeException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What reading a record needs of its class, looked up once per class: its components' names
 * and generic types, and its canonical constructor; and its accessors, for a tagged class
 * ({@link TaggedCodec}) that is written as an object of its own. Looked up for every value
 * read, the reflection (the generic types parsed from their signatures, the constructor found
 * and opened) was most of the time a read of a small record took.
 */
final class Records {
  private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
    @Override
    protected Shape computeValue(Class<?> type) {
      return Shape.of(type);
    }
  };

  private Records() {}

  /** The shape of {@code type}, a record class. */
  static Shape of(Class<?> type) {
    return SHAPES.get(type);
  }

  /** The record's components as an object, in declaration order. */
  static Map<String, Object> write(Object record) {
    Shape shape = of(record.getClass());
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < shape.names().length; i++) {
      Method accessor = shape.accessors()[i];
      try {
        out.put(shape.names()[i], accessor.invoke(record));
      } catch (InvocationTargetException e) {
        throw new KvTypeException(record.getClass().getName() + "." + accessor.getName()
            + "() failed: " + e.getCause());
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new KvTypeException("cannot read " + record.getClass().getName() + "."
            + accessor.getName() + "(): " + e);
      }
    }
    return out;
  }

  /**
   * A record class's components and constructor; instead of the constructor, why it cannot be
   * reached (a package not opened to Kvasir), to be reported on each read.
   */
  record Shape(String[] names, Type[] types, Method[] accessors, Constructor<?> constructor,
      String unusable) {
    static Shape of(Class<?> type) {
      RecordComponent[] components = type.getRecordComponents();
      String[] names = new String[components.length];
      Type[] types = new Type[components.length];
      Method[] accessors = new Method[components.length];
      Class<?>[] erased = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        names[i] = components[i].getName();
        types[i] = components[i].getGenericType();
        accessors[i] = components[i].getAccessor();
        erased[i] = components[i].getType();
      }
      try {
        Constructor<?> constructor = type.getDeclaredConstructor(erased);
        constructor.setAccessible(true);
        for (Method accessor : accessors) {
          accessor.setAccessible(true);
        }
        return new Shape(names, types, accessors, constructor, null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return new Shape(names, types, accessors, null, e.toString());
      }
    }
  }
}
