package dev.kvasir.value;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The text of a JS object or array as read ({@code toString}, and so {@code KvEntry}'s), in
 * Java's form, {@code {name=Ada, tags=[a, b]}}. A value is a graph (docs/mapping.md §7): a part
 * that contains itself shows as {@code (cycle)}, and the text stops at {@value #MAX_CHARS}
 * characters and {@value #MAX_DEPTH} levels. Java's own {@code toString} of such a value
 * overflowed the stack on a cycle, and on a few hundred bytes whose objects refer twice to the
 * next ran for hours, so that logging an entry could hang its caller.
 */
final class ValueText {
  static final int MAX_CHARS = 10_000;
  static final int MAX_DEPTH = 100;

  private final StringBuilder out = new StringBuilder();
  private final Set<Object> open = Collections.newSetFromMap(new IdentityHashMap<>());

  private ValueText() {}

  static String of(Object value) {
    ValueText text = new ValueText();
    text.append(value, 0);
    if (text.out.length() > MAX_CHARS) {
      text.out.setLength(MAX_CHARS);
      text.out.append('…');
    }
    return text.out.toString();
  }

  private void append(Object value, int depth) {
    if (out.length() > MAX_CHARS) {
      return;
    }
    boolean container = value instanceof JsObject || value instanceof JsArray;
    if (!container) {
      out.append(value);
    } else if (depth >= MAX_DEPTH) {
      out.append('…');
    } else if (!open.add(value)) {
      out.append("(cycle)");
    } else {
      if (value instanceof List<?> list) {
        appendElements(list, depth);
      } else {
        appendProperties((Map<?, ?>) value, depth);
      }
      open.remove(value);
    }
  }

  private void appendElements(List<?> list, int depth) {
    out.append('[');
    for (int i = 0; i < list.size() && out.length() <= MAX_CHARS; i++) {
      if (i > 0) {
        out.append(", ");
      }
      append(list.get(i), depth + 1);
    }
    out.append(']');
  }

  private void appendProperties(Map<?, ?> map, int depth) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (out.length() > MAX_CHARS) {
        break;
      }
      if (!first) {
        out.append(", ");
      }
      first = false;
      out.append(e.getKey()).append('=');
      append(e.getValue(), depth + 1);
    }
    out.append('}');
  }
}
