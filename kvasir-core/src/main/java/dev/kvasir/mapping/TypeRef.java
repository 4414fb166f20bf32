package dev.kvasir.mapping;

import dev.kvasir.base.KvArgumentException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * A generic type to read a value as, captured by an anonymous subclass: {@code
 * entry.value(new TypeRef<List<User>>() {})} reads a list whose elements become {@code User}s,
 * which {@code value(List.class)} cannot say.
 *
 * @param <T> the type
 */
public abstract class TypeRef<T> {
  private final Type type;

  /**
   * Captures the type argument of the anonymous subclass.
   *
   * @throws KvArgumentException if the subclass does not name a type argument
   */
  protected TypeRef() {
    Type superclass = getClass().getGenericSuperclass();
    if (!(superclass instanceof ParameterizedType p)) {
      throw new KvArgumentException("a TypeRef needs its type argument: new TypeRef<List<User>>()"
          + " {}, not a raw TypeRef");
    }
    this.type = p.getActualTypeArguments()[0];
  }

  /** The captured type, such as {@code List<User>}. */
  public final Type type() {
    return type;
  }

  @Override
  public String toString() {
    return "TypeRef<" + type.getTypeName() + ">";
  }
}
