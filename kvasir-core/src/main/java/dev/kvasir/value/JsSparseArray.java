package dev.kvasir.value;

import dev.kvasir.base.KvArgumentException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A JS array whose length is far beyond its elements ({@code a = []; a[1e9] = 1}), which a
 * {@link java.util.List} could only hold by allocating every hole. The reader returns one only
 * when materialising the holes would cost more than the input justifies. Not thread-safe.
 */
public final class JsSparseArray {
  /** Largest JS array length, 2^32 − 1. */
  public static final long MAX_LENGTH = 0xffffffffL;

  private final long length;
  private final TreeMap<Long, Object> elements = new TreeMap<>();
  private final LinkedHashMap<String, Object> properties = new LinkedHashMap<>();

  /**
   * @throws KvArgumentException if {@code length} is outside {@code [0, 2^32 − 1]}
   */
  public JsSparseArray(long length) {
    if (length < 0 || length > MAX_LENGTH) {
      throw new KvArgumentException("array length out of range: " + length);
    }
    this.length = length;
  }

  public long length() {
    return length;
  }

  /** Index → element for the indices that hold one, ascending; mutable within the length. */
  public TreeMap<Long, Object> elements() {
    return elements;
  }

  /** Sets one element. */
  public JsSparseArray set(long index, Object value) {
    if (index < 0 || index >= length) {
      throw new IndexOutOfBoundsException("index " + index + " outside length " + length);
    }
    elements.put(index, value);
    return this;
  }

  /** The named (non-index) properties, in insertion order; mutable. */
  public Map<String, Object> properties() {
    return properties;
  }

  @Override
  public String toString() {
    return "Array(" + length + ", " + elements.size() + " elements)";
  }
}
