package dev.kvasir.value;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JS {@code Map}: entries in insertion order, keys compared by SameValueZero (primitives by
 * value, objects by identity), so two equal but distinct object keys stay two entries and a
 * cyclic key is never hashed. Not a {@link java.util.Map}: its equality is identity, as in JS.
 * Not thread-safe.
 */
public final class JsMap implements Iterable<Map.Entry<Object, Object>> {
  private final LinkedHashMap<Object, Map.Entry<Object, Object>> entries = new LinkedHashMap<>();

  public JsMap() {}

  /** A map of the entries of a Java map, in its iteration order. */
  public static JsMap copyOf(Map<?, ?> source) {
    JsMap map = new JsMap();
    source.forEach(map::put);
    return map;
  }

  /** Sets {@code key} to {@code value}; an existing key keeps its position. Returns this map. */
  public JsMap put(Object key, Object value) {
    Object normalized = SameValueZero.normalize(key);
    entries.compute(SameValueZero.key(key), (k, old) ->
        new AbstractMap.SimpleEntry<>(old == null ? normalized : old.getKey(), value));
    return this;
  }

  /** The value for {@code key}, or null when absent. */
  public Object get(Object key) {
    Map.Entry<Object, Object> e = entries.get(SameValueZero.key(key));
    return e == null ? null : e.getValue();
  }

  public boolean containsKey(Object key) {
    return entries.containsKey(SameValueZero.key(key));
  }

  /** Removes {@code key}; returns whether it was present. */
  public boolean remove(Object key) {
    return entries.remove(SameValueZero.key(key)) != null;
  }

  public int size() {
    return entries.size();
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The entries in insertion order; read-only. */
  @Override
  public Iterator<Map.Entry<Object, Object>> iterator() {
    return Collections.unmodifiableCollection(entries.values()).iterator();
  }

  @Override
  public String toString() {
    return "Map(" + size() + ")";
  }
}
