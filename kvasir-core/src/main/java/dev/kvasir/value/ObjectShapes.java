package dev.kvasir.value;

/**
 * The property names of objects decoded before, one array per shape, so that the objects of one
 * shape (every {@code {i, name, tags, active}} of a list) share one array of names instead of
 * each holding its own, much as V8 lets objects built alike share a hidden class
 * (docs/values.md §7, "Decoded objects share their names"). {@link JsObject} keeps the rules for
 * using a shared array; this class only finds and remembers them.
 *
 * <p>A fixed table, so its size is bounded whatever values arrive. A slot is chosen by the first
 * name and the depth of the object in its value, so that an outer object and the objects inside
 * it do not take each other's slot when both begin with the same name (an {@code id}, say). A
 * shape keeps its slot while objects use it: each object that matches it to the end earns it a
 * credit, up to {@link #MOST_CREDIT}, and each object that would replace it and finds credit left
 * takes one instead. So objects of two shapes that take turns in one slot leave the first
 * there rather than each copying its names into a new shape, and objects whose names are all
 * different (a map of user ids) replace a shape only once in {@value #FIRST_CREDIT} objects.
 *
 * <p>Thread-safe: see {@link Shape}. The credits are racy on purpose: a lost update only moves
 * the moment a shape is replaced.
 */
final class ObjectShapes {
  private static final int SLOTS = 512; // a power of two
  /** Most names a shared shape holds: the size of objects that still have no hash index. */
  static final int MAX_NAMES = JsObject.INDEX_FROM;
  /** The credit of a new shape: objects that would replace it before it is used. */
  private static final int FIRST_CREDIT = 15;
  private static final int MOST_CREDIT = 31;
  private static final Shape[] SHAPES = new Shape[SLOTS];
  private static final int[] CREDITS = new int[SLOTS];

  private ObjectShapes() {}

  /** The slot for objects at {@code depth} that begin with {@code first}. */
  static int slot(String first, int depth) {
    int hash = first.hashCode() * 31 + depth; // a String caches its hash
    return (hash ^ (hash >>> 16)) & (SLOTS - 1);
  }

  /**
   * The names of the shape in {@code slot} if it begins with {@code first} (the same instance,
   * as {@link PropertyNames} hands out), else null.
   */
  static String[] startingWith(int slot, String first) {
    Shape shape = SHAPES[slot];
    return shape != null && shape.names[0] == first ? shape.names : null;
  }

  /** Notes that an object had exactly the names of {@code names}, the shape in {@code slot}. */
  static void used(int slot, String[] names) {
    // Written only while below the most, so that a busy shape's credit is not written at all.
    if (CREDITS[slot] < MOST_CREDIT) {
      Shape shape = SHAPES[slot];
      if (shape != null && shape.names == names) {
        CREDITS[slot]++;
      }
    }
  }

  /**
   * Whether an object that matched no shape may offer its names as the new one in {@code slot}
   * ({@link #remember}); if not, the shape there loses a credit. An empty slot has none.
   */
  static boolean admits(int slot) {
    if (CREDITS[slot] <= 0) {
      return true;
    }
    CREDITS[slot]--;
    return false;
  }

  /** Makes {@code names}, an array nothing changes from now on, the shape in {@code slot}. */
  static void remember(int slot, String[] names) {
    CREDITS[slot] = FIRST_CREDIT;
    SHAPES[slot] = new Shape(names);
  }

  /**
   * The array behind a final field: a thread that reads a shape from the table, however racily,
   * sees the names that were written before it was made (JLS §17.5), so a racy slot is only a
   * miss, never a half-filled array.
   */
  private static final class Shape {
    final String[] names;

    Shape(String[] names) {
      this.names = names;
    }
  }
}
