package dev.kvasir.value;

/**
 * The property names of objects decoded before, one array per shape, so that the objects of one
 * shape (every {@code {i, name, tags, active}} of a list) share one array of names instead of
 * each holding its own, much as V8 lets objects built alike share a hidden class
 * (docs/values.md §7, "Decoded objects share their names"). {@link JsObject} keeps the rules for
 * using a shared array; this class only finds and remembers them.
 *
 * <p>A fixed table where a newcomer replaces what was in its slot, so its size is bounded
 * whatever values arrive. A slot is chosen by the first name and the depth of the object in its
 * value, so that an outer object and the objects inside it do not take each other's slot when
 * both begin with the same name (an {@code id}, say). Thread-safe: see {@link Shape}.
 */
final class ObjectShapes {
  private static final int SLOTS = 512; // a power of two
  /** Most names a shared shape holds: the size of objects that still have no hash index. */
  static final int MAX_NAMES = JsObject.INDEX_FROM;
  private static final Shape[] TABLE = new Shape[SLOTS];

  private ObjectShapes() {}

  /**
   * The names of the shape remembered for objects at {@code depth} that begin with {@code first}
   * (the same instance, as {@link PropertyNames} hands out), or null if there is none.
   */
  static String[] startingWith(String first, int depth) {
    Shape shape = TABLE[slot(first, depth)];
    return shape != null && shape.names[0] == first ? shape.names : null;
  }

  /** Remembers {@code names}, an array nothing changes from now on, in place of its slot's. */
  static void remember(String[] names, int depth) {
    TABLE[slot(names[0], depth)] = new Shape(names);
  }

  private static int slot(String first, int depth) {
    int hash = first.hashCode() * 31 + depth; // a String caches its hash
    return (hash ^ (hash >>> 16)) & (SLOTS - 1);
  }

  /**
   * The array behind a final field: a thread that reads a shape from the table, however racily,
   * sees the names that were written before it was made (JLS §17.5). A racy slot is then only a
   * miss, never a half-filled array.
   */
  private static final class Shape {
    final String[] names;

    Shape(String[] names) {
      this.names = names;
    }
  }
}
