package dev.kvasir.value;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** JS array indices: the property keys V8 writes as numbers and orders first. */
final class ArrayIndex {
  /** The largest array index, 2^32 − 2. */
  static final long MAX = 0xfffffffeL;

  private ArrayIndex() {}

  /** The index a property key denotes ("0", "17", never "01" or "-1"), or −1 if none. */
  static long parse(String key) {
    int n = key.length();
    if (n == 0 || n > 10 || (n > 1 && key.charAt(0) == '0')) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value <= MAX ? value : -1;
  }

  /** A cheap first test: only keys that start with a digit can be indices. */
  static boolean mayBeIndex(String key) {
    return !key.isEmpty() && key.charAt(0) >= '0' && key.charAt(0) <= '9';
  }

  /** Sort key of JS property order: an index sorts by its value, every other name last. */
  static long position(String key) {
    long index = parse(key);
    return index < 0 ? Long.MAX_VALUE : index;
  }

  /**
   * Puts {@code object}'s keys in JS property order, in place (the map may already be
   * referenced by a cycle): array indices ascending, then the other keys in insertion order.
   */
  static void sortProperties(Map<String, Object> object) {
    long previous = -1;
    boolean sawName = false;
    boolean sorted = true;
    for (String key : object.keySet()) {
      long index = parse(key);
      if (index < 0) {
        sawName = true;
      } else if (sawName || index < previous) {
        sorted = false;
        break;
      } else {
        previous = index;
      }
    }
    if (sorted) {
      return;
    }
    List<Map.Entry<String, Object>> entries = new ArrayList<>();
    for (Map.Entry<String, Object> e : object.entrySet()) {
      entries.add(new AbstractMap.SimpleImmutableEntry<>(e)); // outlives the clear below
    }
    entries.sort(Comparator.comparingLong(e -> position(e.getKey()))); // stable: names keep order
    object.clear();
    for (Map.Entry<String, Object> e : entries) {
      object.put(e.getKey(), e.getValue());
    }
  }
}
