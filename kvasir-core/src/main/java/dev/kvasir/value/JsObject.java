package dev.kvasir.value;

import java.io.IOException;
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
 */
final class JsObject extends AbstractMap<String, Object> implements Serializable {
  static final int INDEX_FROM = 16;
  private static final long serialVersionUID = 1L;

  private String[] names;
  private Object[] values;
  private int size;
  private transient int modCount;
  /** Position by name while the object is larger than {@link #INDEX_FROM}, else null. */
  private transient HashMap<String, Integer> index;

  JsObject(int capacity) {
    names = new String[Math.max(capacity, 1)];
    values = new Object[names.length];
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
    if (size == names.length) {
      names = Arrays.copyOf(names, size * 2);
      values = Arrays.copyOf(values, size * 2);
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
