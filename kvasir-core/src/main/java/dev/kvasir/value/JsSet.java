package dev.kvasir.value;

import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * A JS {@code Set}: values in insertion order, compared by SameValueZero (see {@link JsMap}).
 * Not a {@link java.util.Set}: its equality is identity, as in JS. Not thread-safe.
 */
public final class JsSet implements Iterable<Object> {
  private final LinkedHashMap<Object, Object> values = new LinkedHashMap<>();

  public JsSet() {}

  /** A set of the values of a Java collection, in its iteration order. */
  public static JsSet copyOf(Collection<?> source) {
    JsSet set = new JsSet();
    source.forEach(set::add);
    return set;
  }

  /** Adds {@code value} unless already present. Returns this set. */
  public JsSet add(Object value) {
    values.putIfAbsent(SameValueZero.key(value), SameValueZero.normalize(value));
    return this;
  }

  public boolean contains(Object value) {
    return values.containsKey(SameValueZero.key(value));
  }

  /** Removes {@code value}; returns whether it was present. */
  public boolean remove(Object value) {
    return values.remove(SameValueZero.key(value)) != null;
  }

  public int size() {
    return values.size();
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** The values in insertion order; read-only. */
  @Override
  public Iterator<Object> iterator() {
    return Collections.unmodifiableCollection(values.values()).iterator();
  }

  @Override
  public String toString() {
    return "Set(" + size() + ")";
  }
}
