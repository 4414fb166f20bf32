package dev.kvasir.mapping;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The type arguments of a generic record or bean read as a parameterised type ({@code
 * Page<Todo>} through a {@code TypeRef}), put in place of its type variables in the types of
 * its parts: {@code List<T>} becomes {@code List<Todo>}. Without them a part read as its type
 * variable's bound, {@code Object}, and a {@code Page<Todo>} held JS objects where its type
 * promised {@code Todo}s, failing later with a {@code ClassCastException} (docs/mapping.md §4).
 */
final class TypeArguments {
  /** No type arguments: a class read as itself. */
  static final TypeArguments NONE = new TypeArguments(Map.of());

  private final Map<TypeVariable<?>, Type> bound;

  private TypeArguments(Map<TypeVariable<?>, Type> bound) {
    this.bound = bound;
  }

  /** {@code raw}'s type variables bound to {@code arguments}, in order. */
  static TypeArguments of(Class<?> raw, Type[] arguments) {
    TypeVariable<?>[] variables = raw.getTypeParameters();
    if (variables.length == 0 || variables.length != arguments.length) {
      return NONE;
    }
    Map<TypeVariable<?>, Type> bound = new HashMap<>();
    for (int i = 0; i < variables.length; i++) {
      bound.put(variables[i], arguments[i]);
    }
    return new TypeArguments(bound);
  }

  /**
   * The type variables of {@code c}, a class that implements or extends {@code raw}, bound to
   * {@code arguments}, {@code raw}'s, where {@code c}'s declaration passes them on: for {@code
   * record Ok<T>(T value) implements Result<T>} read as {@code Result<Todo>}, Ok's {@code T} is
   * {@code Todo}. Levels between them pass them on the same way ({@code Timeout<T> implements
   * Failure<T>}, {@code Failure<T> extends Result<T>}). A variable not passed on stays unbound.
   */
  static TypeArguments passedOn(Class<?> c, Class<?> raw, Type[] arguments) {
    Type[] passed = asSeenFrom(c, NONE, raw);
    if (passed == null) {
      return NONE;
    }
    Map<TypeVariable<?>, Type> bound = new HashMap<>();
    for (int i = 0; i < passed.length && i < arguments.length; i++) {
      if (passed[i] instanceof TypeVariable<?> v && v.getGenericDeclaration() == c) {
        bound.put(v, arguments[i]);
      }
    }
    return bound.isEmpty() ? NONE : new TypeArguments(bound);
  }

  /**
   * The type arguments {@code raw} has as a supertype of {@code level}, in the terms of the
   * class the walk started from ({@code levelArguments} binds level's variables to them); null
   * when {@code level} does not reach {@code raw} with arguments.
   */
  private static Type @Nullable [] asSeenFrom(Class<?> level, TypeArguments levelArguments,
      Class<?> raw) {
    List<Type> supertypes = new ArrayList<>(List.of(level.getGenericInterfaces()));
    supertypes.add(level.getGenericSuperclass());
    for (Type supertype : supertypes) {
      if (!(supertype instanceof ParameterizedType p)
          || !raw.isAssignableFrom((Class<?>) p.getRawType())) {
        continue;
      }
      Type[] arguments = p.getActualTypeArguments();
      for (int i = 0; i < arguments.length; i++) {
        arguments[i] = levelArguments.in(arguments[i]);
      }
      Class<?> next = (Class<?>) p.getRawType();
      Type[] found = next == raw ? arguments
          : asSeenFrom(next, TypeArguments.of(next, arguments), raw);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * The type variables of {@code type}'s superclasses bound to the arguments its class
   * declaration gives them: for {@code TodoPage extends Page<Todo>}, Page's {@code T} is {@code
   * Todo}, so an inherited {@code setItems(List<T>)} takes {@code List<Todo>}. An argument that
   * is one of {@code type}'s own variables stays one, to be bound when {@code type} is read as a
   * parameterised type. Interfaces are not followed: a bean's setters are its classes'.
   */
  static TypeArguments inherited(Class<?> type) {
    Map<TypeVariable<?>, Type> bound = new HashMap<>();
    TypeArguments sofar = new TypeArguments(bound);
    for (Class<?> c = type; c.getSuperclass() != null; c = c.getSuperclass()) {
      if (c.getGenericSuperclass() instanceof ParameterizedType p) {
        TypeVariable<?>[] variables = ((Class<?>) p.getRawType()).getTypeParameters();
        Type[] arguments = p.getActualTypeArguments();
        for (int i = 0; i < variables.length; i++) {
          // Bound one level at a time from the class read, so a later argument that names an
          // earlier superclass's variable is resolved already.
          bound.put(variables[i], sofar.in(arguments[i]));
        }
      }
    }
    return bound.isEmpty() ? NONE : sofar;
  }

  /** {@code type} with the bound type variables replaced by their arguments. */
  Type in(Type type) {
    if (bound.isEmpty()) {
      return type;
    }
    if (type instanceof TypeVariable<?> v) {
      return bound.getOrDefault(v, v);
    }
    if (type instanceof WildcardType w) {
      return in(w.getUpperBounds()[0]); // as the reader reads a wildcard
    }
    if (type instanceof GenericArrayType g) {
      Type component = in(g.getGenericComponentType());
      return component instanceof Class<?> c ? c.arrayType() : new ArrayOf(component);
    }
    if (type instanceof ParameterizedType p) {
      Type[] arguments = p.getActualTypeArguments();
      boolean changed = false;
      for (int i = 0; i < arguments.length; i++) {
        Type resolved = in(arguments[i]);
        changed |= resolved != arguments[i];
        arguments[i] = resolved;
      }
      return changed ? new Parameterized((Class<?>) p.getRawType(), arguments, p.getOwnerType())
          : p;
    }
    return type;
  }

  /** A parameterised type made here, equal to the JDK's of the same parts. */
  private static final class Parameterized implements ParameterizedType {
    private final Class<?> raw;
    private final Type[] arguments;
    private final Type owner;

    Parameterized(Class<?> raw, Type[] arguments, Type owner) {
      this.raw = raw;
      this.arguments = arguments;
      this.owner = owner;
    }

    @Override
    public Type[] getActualTypeArguments() {
      return arguments.clone();
    }

    @Override
    public Type getRawType() {
      return raw;
    }

    @Override
    public Type getOwnerType() {
      return owner;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ParameterizedType p && raw.equals(p.getRawType())
          && Objects.equals(owner, p.getOwnerType())
          && Arrays.equals(arguments, p.getActualTypeArguments());
    }

    @Override
    public int hashCode() { // as the JDK's, so that equal types hash alike
      return Arrays.hashCode(arguments) ^ Objects.hashCode(owner) ^ raw.hashCode();
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder(raw.getTypeName()).append('<');
      for (int i = 0; i < arguments.length; i++) {
        text.append(i == 0 ? "" : ", ").append(arguments[i].getTypeName());
      }
      return text.append('>').toString();
    }
  }

  /** An array of a parameterised type made here ({@code List<Todo>[]}). */
  private record ArrayOf(Type component) implements GenericArrayType {
    @Override
    public Type getGenericComponentType() {
      return component;
    }

    @Override
    public String getTypeName() {
      return component.getTypeName() + "[]";
    }
  }
}
