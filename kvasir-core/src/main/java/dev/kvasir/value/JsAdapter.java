package dev.kvasir.value;

/**
 * Turns a Java object that the JS value model does not hold (docs/values.md §7) into one that it
 * does, for {@link V8#serialize(Object, JsAdapter)}: an enum into its name, a record of the
 * user's into a map. What it returns may itself need adapting (a bean's properties); the writer
 * asks again for each such object. {@code dev.kvasir.mapping.ValueMapper} is the one Kvasir
 * uses.
 */
@FunctionalInterface
public interface JsAdapter {
  /**
   * A value of the JS value model standing for {@code value}.
   *
   * @throws dev.kvasir.base.KvTypeException if {@code value} cannot be written; the writer adds
   *     its path inside the value
   */
  Object adapt(Object value);

  /**
   * Whether this adapter maps records of {@code type}, which the writer otherwise writes as
   * objects of their components itself.
   */
  default boolean overrides(Class<?> type) {
    return false;
  }
}
