package dev.kvasir.value;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A JS object as read from V8: a mutable map from property name to value in insertion order,
 * like a {@code LinkedHashMap}, kept in two arrays instead of a node per property. Stored
 * objects are mostly small, where this takes a third of the memory and a lookup is a short
 * scan of names that are often the same instances (see {@link PropertyNames}); beyond {@value
 * #INDEX_FROM} properties, a hash index keeps lookups constant-time. Not thread-safe.
 *
 * <p>An object the decoder made may share its array of names with the other objects of its
 * shape ({@link ObjectShapes}). A shared array holds one slot more than its names, marked by
 * {@link #SHARED_END}, so that {@code names[size]} is null for an array the object owns and not
 * null for a shared one; the object copies the names before it changes them.
 */
final class JsObject extends AbstractMap<String, Object> implements Serializable {
  static final int INDEX_FROM = 16;
  private static final long serialVersionUID = 1L;
  private static final String[] NO_NAMES = {};
  private static final Object[] NO_VALUES = {};
  /** Follows the names in a shared array: a String no property name can be (compared by ==). */
  private static final String SHARED_END = new String("end of shared names");

  private String[] names;
  private Object[] values;
  private int size;
  private transient int modCount;
  /** Position by name while the object is larger than {@link #INDEX_FROM}, else null. */
  private transient HashMap<String, Integer> index;

  /** An empty object, which allocates its arrays with its first property. */
  JsObject() {
    names = NO_NAMES;
    values = NO_VALUES;
  }

  /**
   * Adds a property as the decoder reads it, after its value. The first name looks for a shape
   * met before in {@code slot} ({@link ObjectShapes#slot}, or -1 for a name no shape can begin
   * with); while the names that follow are those of the shape, only the values are stored.
   */
  void addDecoded(String name, Object value, int slot) {
    if (names.length == 0) {
      String[] shape = slot < 0 ? null : ObjectShapes.startingWith(slot, name);
      if (shape != null) {
        names = shape;
        values = new Object[shape.length - 1];
      } else {
        names = new String[4];
        values = new Object[4];
      }
    }
    if (size < names.length && names[size] == name) {
      values[size++] = value;
    } else {
      put(name, value);
    }
  }

  /**
   * Ends the decoding of this object: one that stopped short of its shape keeps its own copy of
   * the names it has; one with names of its own offers them as the shape for objects that begin
   * as it does, if {@code shareable} (names from {@link PropertyNames}, in the order read).
   *
   * @return whether the object had exactly the names of a shape met before
   */
  boolean endDecoded(int slot, boolean shareable) {
    if (sharesNames()) {
      if (names[size] == SHARED_END) {
        ObjectShapes.used(slot, names);
        return true;
      }
      ownNames();
    } else if (shareable && size > 0 && size <= ObjectShapes.MAX_NAMES
        && ObjectShapes.admits(slot)) {
      // Its own array becomes the shape where it has just the one slot more that a shape needs.
      String[] shape = names.length == size + 1 ? names : Arrays.copyOf(names, size + 1);
      shape[size] = SHARED_END;
      ObjectShapes.remember(slot, shape);
      names = shape;
    }
    return false;
  }

  /** Whether the names are a shape's array, shared with other objects (see the class comment). */
  boolean sharesNames() {
    return size < names.length && names[size] != null;
  }

  /** Replaces a shared array of names with a copy of its own, before a change to the names. */
  private void ownNames() {
    String[] own = new String[values.length]; // never shorter than size
    System.arraycopy(names, 0, own, 0, size);
    names = own;
  }

  @Override
  public int size() {
    return size;
  }

  /** The properties as a map shows them, safe on a value that contains itself (ValueText). */
  @Override
  public String toString() {
    return ValueText.of(this);
  }

  @Override
  public boolean containsKey(Object key) {
    return find(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int i = find(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public Object put(String key, Object value) {
    int i = find(key);
    if (i >= 0) {
      Object old = values[i];
      values[i] = value;
      return old;
    }
    if (size == values.length) {
      values = Arrays.copyOf(values, Math.max(4, size * 2));
    }
    if (size == names.length || sharesNames()) {
      ownNames();
    }
    names[size] = key;
    values[size] = value;
    size++;
    modCount++;
    if (index != null) {
      index.put(key, size - 1);
    } else if (size > INDEX_FROM) {
      reindex();
    }
    return null;
  }

  @Override
  public Object remove(Object key) {
    int i = find(key);
    if (i < 0) {
      return null;
    }
    Object old = values[i];
    removeAt(i);
    return old;
  }

  @Override
  public void clear() {
    if (sharesNames()) {
      ownNames();
    }
    Arrays.fill(names, 0, size, null);
    Arrays.fill(values, 0, size, null);
    size = 0;
    index = null;
    modCount++;
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new Entries();
  }

  private int find(Object key) {
    if (index != null) {
      Integer at = index.get(key);
      return at == null ? -1 : at;
    }
    for (int i = 0; i < size; i++) {
      if (Objects.equals(names[i], key)) {
        return i;
      }
    }
    return -1;
  }

  private void removeAt(int i) {
    if (sharesNames()) {
      ownNames();
    }
    int tail = size - i - 1;
    System.arraycopy(names, i + 1, names, i, tail);
    System.arraycopy(values, i + 1, values, i, tail);
    size--;
    names[size] = null;
    values[size] = null;
    modCount++;
    if (index != null) {
      if (size > INDEX_FROM) {
        reindex();
      } else {
        index = null;
      }
    }
  }

  /** Serializable like the {@code LinkedHashMap} it replaces; the index is rebuilt on reading. */
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (names == null || values == null || size < 0 || size > names.length
        || size > values.length) {
      throw new InvalidObjectException("JsObject of " + size + " properties without room for them");
    }
    names = Arrays.copyOf(names, size); // its own, whether or not the writer's was shared
    if (size > INDEX_FROM) {
      reindex();
    }
  }

  private void reindex() {
    index = new HashMap<>(size * 2);
    for (int i = 0; i < size; i++) {
      index.put(names[i], i);
    }
  }

  private final class Entries extends AbstractSet<Map.Entry<String, Object>> {
    @Override
    public int size() {
      return size;
    }

    @Override
    public void clear() {
      JsObject.this.clear();
    }

    @Override
    public Iterator<Map.Entry<String, Object>> iterator() {
      return new Iterator<>() {
        private int next;
        private int last = -1;
        private int expected = modCount;

        @Override
        public boolean hasNext() {
          return next < size;
        }

        @Override
        public Map.Entry<String, Object> next() {
          if (modCount != expected) {
            throw new ConcurrentModificationException();
          }
          if (next >= size) {
            throw new NoSuchElementException();
          }
          last = next++;
          return new Property(last);
        }

        @Override
        public void remove() {
          if (last < 0) {
            throw new IllegalStateException();
          }
          if (modCount != expected) {
            throw new ConcurrentModificationException();
          }
          removeAt(last);
          next = last;
          last = -1;
          expected = modCount;
        }
      };
    }
  }

  /**
   * One property, like a map node: it reads and writes the object while the name is in it, and
   * keeps its last value once the name was removed.
   */
  private final class Property implements Map.Entry<String, Object> {
    private final String name;
    private final int at;
    private final int born = modCount;
    private Object value;

    Property(int at) {
      this.name = names[at];
      this.at = at;
      this.value = values[at];
    }

    /** Where the name is now: still at its slot unless names were added or removed since. */
    private int position() {
      return modCount == born ? at : find(name);
    }

    @Override
    public String getKey() {
      return name;
    }

    @Override
    public Object getValue() {
      int i = position();
      if (i >= 0) {
        value = values[i];
      }
      return value;
    }

    @Override
    public Object setValue(Object newValue) {
      Object old = getValue();
      int i = position();
      if (i >= 0) {
        values[i] = newValue;
      }
      value = newValue;
      return old;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e && Objects.equals(name, e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(name) ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return name + "=" + getValue();
    }
  }
}
