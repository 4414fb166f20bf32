package dev.kvasir.value;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JS array as the reader returns it: an {@link ArrayList} whose elements may include {@link
 * Hole}s, plus the named properties a JS array can carry ({@code a.foo = "bar"}), which a
 * plain list cannot. Equality is {@code List} equality over the elements only. Write a plain
 * {@code List} unless you need properties. Not thread-safe.
 */
public final class JsArray extends ArrayList<Object> {
  private static final long serialVersionUID = 1L;

  private LinkedHashMap<String, Object> properties;

  public JsArray() {}

  public JsArray(Collection<?> elements) {
    super(elements);
  }

  JsArray(int capacity) {
    super(capacity);
  }

  /** The named (non-index) properties, in insertion order; mutable. */
  public Map<String, Object> properties() {
    if (properties == null) {
      properties = new LinkedHashMap<>();
    }
    return properties;
  }

  boolean hasProperties() {
    return properties != null && !properties.isEmpty();
  }

  /** The elements as a list shows them, safe on a value that contains itself (ValueText). */
  @Override
  public String toString() {
    return ValueText.of(this);
  }
}
