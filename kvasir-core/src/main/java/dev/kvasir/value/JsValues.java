package dev.kvasir.value;

import dev.kvasir.internal.LargeStack;
import java.math.BigInteger;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Structural equality of value graphs, the equality that survives a round trip through V8
 * bytes. Objects (lists, maps, sets, byte arrays, buffers, views, errors) are matched as a
 * graph: shared references must be shared on both sides and cycles must close on the
 * corresponding objects, so it terminates on cyclic values. Order matters everywhere (JS
 * property, Map and Set order are part of the value). Numbers compare by value of any Java
 * number type, with NaN equal to NaN and −0 distinct from +0. Graphs nested deeper than a
 * default thread stack holds are compared on a {@link LargeStack}, as the reader and writer
 * do. Not thread-safe per call.
 */
public final class JsValues {
  private final IdentityHashMap<Object, Object> leftToRight = new IdentityHashMap<>();
  private final IdentityHashMap<Object, Object> rightToLeft = new IdentityHashMap<>();
  private final int maxDepth;
  private int depth;

  private JsValues(int maxDepth) {
    this.maxDepth = maxDepth;
  }

  /** Whether {@code a} and {@code b} are the same JS value graph. */
  public static boolean deepEquals(Object a, Object b) {
    try {
      return new JsValues(V8Tags.INLINE_DEPTH).same(a, b);
    } catch (LargeStack.Deeper | StackOverflowError e) {
      // Unbounded on the large stack: a Java graph may nest deeper than any stored value.
      return LargeStack.call(() -> new JsValues(Integer.MAX_VALUE).same(a, b));
    }
  }

  private boolean same(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (isNumber(a) || isNumber(b)) {
      return isNumber(a) && isNumber(b) && Double.doubleToLongBits(((Number) a).doubleValue())
          == Double.doubleToLongBits(((Number) b).doubleValue());
    }
    if (!isReceiver(a) || !isReceiver(b)) {
      return a.equals(b);
    }
    Object pairedA = leftToRight.get(a);
    Object pairedB = rightToLeft.get(b);
    if (pairedA != null || pairedB != null) {
      return pairedA == b && pairedB == a;
    }
    leftToRight.put(a, b);
    rightToLeft.put(b, a);
    if (++depth > maxDepth) {
      throw LargeStack.Deeper.SIGNAL;
    }
    boolean same = sameReceiver(a, b);
    depth--;
    return same;
  }

  private boolean sameReceiver(Object a, Object b) {
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return java.util.Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      return sameSequence(x, y) && sameEntries(properties(x), properties(y));
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      return sameEntries(x, y);
    }
    if (a instanceof JsMap x && b instanceof JsMap y) {
      return x.size() == y.size() && sameMapEntries(x.iterator(), y.iterator());
    }
    if (a instanceof JsSet x && b instanceof JsSet y) {
      return x.size() == y.size() && sameSequence(x, y);
    }
    if (a instanceof JsSparseArray x && b instanceof JsSparseArray y) {
      return x.length() == y.length() && sameEntries(x.elements(), y.elements())
          && sameEntries(x.properties(), y.properties());
    }
    if (a instanceof JsArrayBuffer x && b instanceof JsArrayBuffer y) {
      return x.isResizable() == y.isResizable() && x.maxByteLength() == y.maxByteLength()
          && java.util.Arrays.equals(x.data(), y.data());
    }
    if (a instanceof JsTypedArray x && b instanceof JsTypedArray y) {
      return x.kind() == y.kind() && x.byteOffset() == y.byteOffset()
          && x.byteLength() == y.byteLength() && x.isLengthTracking() == y.isLengthTracking()
          && same(x.buffer(), y.buffer());
    }
    if (a instanceof JsError x && b instanceof JsError y) {
      return x.kind() == y.kind() && Objects.equals(x.message(), y.message())
          && Objects.equals(x.stack(), y.stack()) && x.hasCause() == y.hasCause()
          && same(x.cause(), y.cause());
    }
    return false;
  }

  private boolean sameSequence(Iterable<?> a, Iterable<?> b) {
    Iterator<?> i = a.iterator();
    Iterator<?> j = b.iterator();
    while (i.hasNext() && j.hasNext()) {
      if (!same(i.next(), j.next())) {
        return false;
      }
    }
    return !i.hasNext() && !j.hasNext();
  }

  private boolean sameEntries(Map<?, ?> a, Map<?, ?> b) {
    return a.size() == b.size() && sameMapEntries(a.entrySet().iterator(),
        b.entrySet().iterator());
  }

  private boolean sameMapEntries(Iterator<? extends Map.Entry<?, ?>> i,
      Iterator<? extends Map.Entry<?, ?>> j) {
    while (i.hasNext() && j.hasNext()) {
      Map.Entry<?, ?> x = i.next();
      Map.Entry<?, ?> y = j.next();
      if (!same(x.getKey(), y.getKey()) || !same(x.getValue(), y.getValue())) {
        return false;
      }
    }
    return !i.hasNext() && !j.hasNext();
  }

  private static Map<String, Object> properties(List<?> list) {
    return list instanceof JsArray a && a.hasProperties() ? a.properties() : Map.of();
  }

  private static boolean isNumber(Object o) {
    return o instanceof Number && !(o instanceof BigInteger);
  }

  private static boolean isReceiver(Object o) {
    return o instanceof byte[] || o instanceof List || o instanceof Map || o instanceof JsMap
        || o instanceof JsSet || o instanceof JsSparseArray || o instanceof JsArrayBuffer
        || o instanceof JsTypedArray || o instanceof JsError;
  }
}
