package dev.kvasir.value;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.internal.LargeStack;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Date;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a Java value in V8's ValueSerializer format the way Deno's {@code core.serialize}
 * does (docs/values.md §3). One instance per value; not thread-safe.
 *
 * <p>Where V8's output depends on engine internals, the rules of §2.3 apply: {@code I} for
 * integral numbers in int32 other than −0; one-byte strings when every unit is ≤ 0xFF; dense
 * arrays unless they contain a {@link Hole}.
 */
final class V8Writer {
  private static final long MAX_DATE_MS = 8_640_000_000_000_000L;
  private static final ClassValue<RecordComponent[]> RECORD_COMPONENTS =
      new ClassValue<>() {
        @Override
        protected RecordComponent[] computeValue(Class<?> type) {
          RecordComponent[] components = type.getRecordComponents();
          for (RecordComponent c : components) {
            c.getAccessor().setAccessible(true);
          }
          return components;
        }
      };

  private final JsAdapter adapter; // null: the JS value model only
  private final V8Buffer out = new V8Buffer();
  // Sized for small values: the default table (64 slots) was most of what writing one allocated.
  private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>(4);
  private int nextId;
  private final int maxDepth;
  private int depth;

  private V8Writer(JsAdapter adapter, int maxDepth) {
    this.adapter = adapter;
    this.maxDepth = maxDepth;
  }

  static byte[] write(Object value, JsAdapter adapter) {
    try {
      return write(value, adapter, V8Tags.INLINE_DEPTH);
    } catch (LargeStack.Deeper | StackOverflowError e) {
      // An overflow here means a thread with an unusually small stack: the large one holds it.
      return LargeStack.call(() -> write(value, adapter, V8Tags.MAX_DEPTH));
    }
  }

  private static byte[] write(Object value, JsAdapter adapter, int maxDepth) {
    V8Writer writer = new V8Writer(adapter, maxDepth);
    writer.out.put(V8Tags.VERSION_TAG);
    writer.out.putVarint(V8Tags.WRITE_VERSION);
    try {
      writer.writeValue(value);
    } catch (PathError e) {
      throw new KvTypeException("value" + e.path() + ": " + e.getMessage());
    } catch (StackOverflowError e) {
      if (maxDepth < V8Tags.MAX_DEPTH) {
        throw e;
      }
      throw new KvTypeException("value nested too deeply for a stack of "
          + (LargeStack.STACK_BYTES >> 20) + " MiB (depth " + writer.depth + ")");
    }
    return writer.out.toArray();
  }

  private void writeValue(Object v) {
    if (v == null) {
      out.put(V8Tags.NULL);
    } else if (v instanceof String s) {
      writeString(s);
    } else if (v instanceof Boolean b) {
      out.put(b ? V8Tags.TRUE : V8Tags.FALSE);
    } else if (isNumber(v)) {
      writeNumber(jsNumber((Number) v));
    } else if (v instanceof BigInteger i) {
      out.put(V8Tags.BIGINT);
      writeBigIntPayload(i);
    } else if (v instanceof Undefined) {
      out.put(V8Tags.UNDEFINED);
    } else if (v instanceof Hole) {
      throw new PathError("a Hole is only allowed as an array element");
    } else {
      writeReceiver(v);
    }
  }

  private void writeReceiver(Object v) {
    Integer seen = ids.get(v);
    if (seen != null) {
      out.put(V8Tags.OBJECT_REFERENCE);
      out.putVarint(seen);
      return;
    }
    if (++depth > maxDepth) {
      if (maxDepth < V8Tags.MAX_DEPTH) {
        throw LargeStack.Deeper.SIGNAL;
      }
      throw new PathError("nested deeper than " + V8Tags.MAX_DEPTH + " levels");
    }
    if (v instanceof byte[] bytes) {
      writeUint8Array(bytes);
    } else if (v instanceof JsTypedArray view) {
      writeView(view);
    } else {
      ids.put(v, nextId++);
      writeNewReceiver(v);
    }
    depth--;
  }

  private void writeNewReceiver(Object v) {
    if (v instanceof Map<?, ?> m) {
      if (allStringKeys(m)) {
        writeObject(m);
      } else {
        writeMap(m.entrySet());
      }
    } else if (v instanceof List<?> list) {
      writeArray(list, v instanceof JsArray a && a.hasProperties() ? a.properties() : Map.of());
    } else if (v instanceof JsMap m) {
      writeMap(m);
    } else if (v instanceof JsSet s) {
      writeSet(s);
    } else if (v instanceof Set<?> s) {
      writeSet(s);
    } else if (v instanceof Instant t) {
      if (t.getNano() % 1_000_000 == 0) {
        writeDate(t);
      } else {
        adapt(v, "an Instant with sub-millisecond precision, which a JS Date cannot hold;"
            + " truncate it (truncatedTo(ChronoUnit.MILLIS))");
      }
    } else if (v instanceof Date d) {
      writeDate(d.toInstant());
    } else if (v instanceof InvalidDate) {
      out.put(V8Tags.DATE);
      out.putDouble(Double.NaN);
    } else if (v instanceof JsRegExp r) {
      out.put(V8Tags.REGEXP);
      writeString(r.source());
      out.putVarint(r.flagBits());
    } else if (v instanceof JsBoxed b) {
      writeBoxed(b);
    } else if (v instanceof JsError e) {
      writeError(e);
    } else if (v instanceof JsArrayBuffer b) {
      writeArrayBuffer(b);
    } else if (v instanceof JsSparseArray a) {
      writeSparseArray(a);
    } else if (v instanceof KvU64 u) {
      // Deno: a nested KvU64 is cloned as the plain object {value: <bigint>} (§2.1).
      writeObject(Map.of("value", u.toBigInteger()));
    } else if (v instanceof Record && (adapter == null || !adapter.overrides(v.getClass()))) {
      writeRecord(v);
    } else if (v.getClass().isArray()) {
      writeArray(new ArrayList<>(Arrays.asList(boxedElements(v))), Map.of());
    } else {
      adapt(v, v.getClass().getName() + " is not serializable");
    }
  }

  /**
   * Writes what the adapter makes of {@code v}, which is not written itself: its id (given in
   * {@link #writeReceiver}) goes back, and further references to {@code v} refer to what it
   * became. Without an adapter, or when it gives {@code v} back, fails with {@code refusal}.
   */
  private void adapt(Object v, String refusal) {
    ids.remove(v);
    nextId--;
    Object adapted;
    try {
      adapted = adapter == null ? v : adapter.adapt(v);
    } catch (KvTypeException e) {
      throw new PathError(e.getMessage());
    }
    if (adapted == v) {
      throw new PathError(refusal);
    }
    int id = nextId;
    writeValue(adapted);
    if (nextId > id) {
      ids.put(v, id);
    }
  }

  private void writeNumber(double d) {
    if (isSmallInteger(d)) {
      int i = (int) d;
      out.put(V8Tags.INT32);
      out.putVarint(Integer.toUnsignedLong((i << 1) ^ (i >> 31)));
    } else {
      out.put(V8Tags.DOUBLE);
      out.putDouble(d);
    }
  }

  /** A number V8 holds as a small integer, written {@code I} (docs/values.md §3.2). */
  private static boolean isSmallInteger(double d) {
    return (int) d == d && !(d == 0 && Double.doubleToRawLongBits(d) != 0);
  }

  private static boolean isNumber(Object v) {
    return v instanceof Double || v instanceof Integer || v instanceof Float
        || v instanceof Short || v instanceof Byte || v instanceof Long;
  }

  /**
   * Whether V8 would keep these elements as doubles, writing every one {@code N}: numbers only,
   * one of them not a small integer (docs/values.md §3.2, "Arrays of numbers").
   */
  private static boolean doubleElements(List<?> list) {
    boolean anyDouble = false;
    for (Object element : list) {
      if (!isNumber(element)) {
        return false;
      }
      anyDouble |= !isSmallInteger(((Number) element).doubleValue());
    }
    return anyDouble;
  }

  private void writeDoubleElement(long index, Number element) {
    double d;
    try {
      d = jsNumber(element);
    } catch (PathError e) {
      throw e.under("[" + index + "]");
    }
    out.put(V8Tags.DOUBLE);
    out.putDouble(d);
  }

  /** The JS number a Java number stands for; a long beyond ±2^53 is refused, not rounded. */
  private static double jsNumber(Number n) {
    if (!(n instanceof Long l)) {
      return n.doubleValue();
    }
    try {
      return JsFormat.exactDouble(l);
    } catch (KvTypeException e) {
      throw new PathError(e.getMessage());
    }
  }

  private void writeBigIntPayload(BigInteger value) {
    if (value.signum() == 0) {
      out.putVarint(0);
      return;
    }
    BigInteger magnitude = value.abs();
    int byteLength = (magnitude.bitLength() + 63) / 64 * 8; // V8 writes whole 64-bit digits
    out.putVarint((long) byteLength << 1 | (value.signum() < 0 ? 1 : 0));
    byte[] bigEndian = magnitude.toByteArray();
    for (int i = 0; i < byteLength; i++) {
      int from = bigEndian.length - 1 - i;
      out.put(from >= 0 ? bigEndian[from] : 0);
    }
  }

  private void writeString(String s) {
    int n = s.length();
    boolean oneByte = true;
    for (int i = 0; i < n && oneByte; i++) {
      oneByte = s.charAt(i) <= 0xff;
    }
    if (oneByte) {
      out.put(V8Tags.ONE_BYTE_STRING);
      out.putVarint(n);
      out.putLatin1(s);
    } else {
      long byteLength = 2L * n;
      // V8 aligns UTF-16 payloads to an even offset from the start of the buffer.
      if (((out.size() + 1 + V8Buffer.varintSize(byteLength)) & 1) != 0) {
        out.put(V8Tags.PADDING);
      }
      out.put(V8Tags.TWO_BYTE_STRING);
      out.putVarint(byteLength);
      out.putUtf16le(s);
    }
  }

  private void writeKey(String key) {
    long index = ArrayIndex.parse(key);
    if (index >= 0) {
      writeNumber(index);
    } else {
      writeString(key);
    }
  }

  private static boolean allStringKeys(Map<?, ?> m) {
    for (Object k : m.keySet()) {
      if (!(k instanceof String)) {
        return false;
      }
    }
    return true;
  }

  /** JS property order: array-index keys ascending, then the rest in insertion order. */
  private void writeObject(Map<?, ?> m) {
    out.put(V8Tags.BEGIN_OBJECT);
    int count = writeProperties(m);
    out.put(V8Tags.END_OBJECT);
    out.putVarint(count);
  }

  private int writeProperties(Map<?, ?> m) {
    List<Map.Entry<?, ?>> indexed = null;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (ArrayIndex.parse((String) e.getKey()) >= 0) {
        indexed = indexed == null ? new ArrayList<>() : indexed;
        indexed.add(e);
      }
    }
    if (indexed != null) {
      indexed.sort(Comparator.comparingLong(e -> ArrayIndex.position((String) e.getKey())));
      for (Map.Entry<?, ?> e : indexed) {
        writeProperty((String) e.getKey(), e.getValue());
      }
    }
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (indexed == null || ArrayIndex.parse((String) e.getKey()) < 0) {
        writeProperty((String) e.getKey(), e.getValue());
      }
    }
    return m.size();
  }

  private void writeProperty(String key, Object value) {
    writeKey(key);
    try {
      writeValue(value);
    } catch (PathError e) {
      throw e.under(ArrayIndex.parse(key) >= 0 ? "[" + key + "]" : "." + key);
    }
  }

  private void writeRecord(Object record) {
    RecordComponent[] components = RECORD_COMPONENTS.get(record.getClass());
    out.put(V8Tags.BEGIN_OBJECT);
    for (RecordComponent c : components) {
      Object value;
      try {
        value = c.getAccessor().invoke(record);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new PathError("cannot read record component " + c.getName() + ": " + e);
      }
      writeProperty(c.getName(), value);
    }
    out.put(V8Tags.END_OBJECT);
    out.putVarint(components.length);
  }

  private void writeArray(List<?> list, Map<String, Object> properties) {
    int length = list.size();
    boolean holey = false;
    for (Object element : list) {
      if (element instanceof Hole) {
        holey = true;
        break;
      }
    }
    if (!holey) {
      out.put(V8Tags.BEGIN_DENSE_ARRAY);
      out.putVarint(length);
      boolean doubles = doubleElements(list);
      for (int i = 0; i < length; i++) {
        if (doubles) {
          writeDoubleElement(i, (Number) list.get(i));
        } else {
          writeElement(i, list.get(i));
        }
      }
      int count = properties.isEmpty() ? 0 : writeProperties(properties);
      out.put(V8Tags.END_DENSE_ARRAY);
      out.putVarint(count);
      out.putVarint(length);
    } else {
      out.put(V8Tags.BEGIN_SPARSE_ARRAY);
      out.putVarint(length);
      int count = 0;
      for (int i = 0; i < length; i++) {
        Object element = list.get(i);
        if (!(element instanceof Hole)) {
          writeNumber(i);
          writeElement(i, element);
          count++;
        }
      }
      count += properties.isEmpty() ? 0 : writeProperties(properties);
      out.put(V8Tags.END_SPARSE_ARRAY);
      out.putVarint(count);
      out.putVarint(length);
    }
  }

  private void writeSparseArray(JsSparseArray a) {
    out.put(V8Tags.BEGIN_SPARSE_ARRAY);
    out.putVarint(a.length());
    int count = 0;
    for (Map.Entry<Long, Object> e : a.elements().entrySet()) {
      if (!(e.getValue() instanceof Hole)) {
        writeNumber(e.getKey());
        writeElement(e.getKey(), e.getValue());
        count++;
      }
    }
    count += writeProperties(a.properties());
    out.put(V8Tags.END_SPARSE_ARRAY);
    out.putVarint(count);
    out.putVarint(a.length());
  }

  private void writeElement(long index, Object element) {
    try {
      if (element instanceof Hole) {
        out.put(V8Tags.THE_HOLE);
      } else {
        writeValue(element);
      }
    } catch (PathError e) {
      throw e.under("[" + index + "]");
    }
  }

  private void writeMap(Iterable<? extends Map.Entry<?, ?>> entries) {
    out.put(V8Tags.BEGIN_MAP);
    int count = 0;
    for (Map.Entry<?, ?> e : entries) {
      try {
        writeValue(SameValueZero.normalize(e.getKey()));
        writeValue(e.getValue());
      } catch (PathError error) {
        throw error.under("<entry " + count / 2 + ">");
      }
      count += 2;
    }
    out.put(V8Tags.END_MAP);
    out.putVarint(count);
  }

  private void writeSet(Iterable<?> values) {
    out.put(V8Tags.BEGIN_SET);
    int count = 0;
    for (Object value : values) {
      try {
        writeValue(SameValueZero.normalize(value));
      } catch (PathError error) {
        throw error.under("<value " + count + ">");
      }
      count++;
    }
    out.put(V8Tags.END_SET);
    out.putVarint(count);
  }

  /** A JS time value: whole milliseconds (the caller checked), within ±8.64e15. */
  private void writeDate(Instant t) {
    if (Math.abs(t.getEpochSecond()) > MAX_DATE_MS / 1000
        || Math.abs(t.toEpochMilli()) > MAX_DATE_MS) {
      throw new PathError("date " + t + " is outside the JS Date range (±8.64e15 ms)");
    }
    out.put(V8Tags.DATE);
    out.putDouble(t.toEpochMilli());
  }

  private void writeBoxed(JsBoxed b) {
    if (b instanceof JsBoxed.Num n) {
      out.put(V8Tags.NUMBER_OBJECT);
      out.putDouble(n.value());
    } else if (b instanceof JsBoxed.Str s) {
      out.put(V8Tags.STRING_OBJECT);
      writeString(s.value());
    } else if (b instanceof JsBoxed.Bool bool) {
      out.put(bool.value() ? V8Tags.TRUE_OBJECT : V8Tags.FALSE_OBJECT);
    } else if (b instanceof JsBoxed.BigInt i) {
      out.put(V8Tags.BIGINT_OBJECT);
      writeBigIntPayload(i.value());
    }
  }

  private void writeError(JsError e) {
    out.put(V8Tags.ERROR);
    if (e.kind() != JsError.Kind.ERROR) {
      out.put(e.kind().tag);
    }
    if (e.message() != null) {
      out.put(V8Tags.ERROR_MESSAGE);
      writeString(e.message());
    }
    if (e.stack() != null) {
      out.put(V8Tags.ERROR_STACK);
      writeString(e.stack());
    }
    if (e.hasCause()) {
      out.put(V8Tags.ERROR_CAUSE);
      try {
        writeValue(e.cause());
      } catch (PathError error) {
        throw error.under(".cause");
      }
    }
    out.put(V8Tags.ERROR_END);
  }

  private void writeArrayBuffer(JsArrayBuffer b) {
    if (b.isResizable()) {
      out.put(V8Tags.RESIZABLE_ARRAY_BUFFER);
      out.putVarint(b.byteLength());
      out.putVarint(b.maxByteLength());
    } else {
      out.put(V8Tags.ARRAY_BUFFER);
      out.putVarint(b.byteLength());
    }
    out.put(b.data());
  }

  /** A {@code byte[]} is a Uint8Array over a buffer of its own; both get ids, buffer first. */
  private void writeUint8Array(byte[] bytes) {
    nextId++;
    ids.put(bytes, nextId++);
    out.put(V8Tags.ARRAY_BUFFER);
    out.putVarint(bytes.length);
    out.put(bytes);
    writeViewTag(JsTypedArray.Kind.UINT8_ARRAY, 0, bytes.length, 0);
  }

  /** V8 writes (or references) the buffer before the view and before the view's id. */
  private void writeView(JsTypedArray view) {
    JsArrayBuffer buffer = view.buffer();
    Integer bufferId = ids.get(buffer);
    if (bufferId != null) {
      out.put(V8Tags.OBJECT_REFERENCE);
      out.putVarint(bufferId);
    } else {
      ids.put(buffer, nextId++);
      writeArrayBuffer(buffer);
    }
    ids.put(view, nextId++);
    int flags = (view.isLengthTracking() ? 1 : 0) | (buffer.isResizable() ? 2 : 0);
    writeViewTag(view.kind(), view.byteOffset(), view.byteLength(), flags);
  }

  private void writeViewTag(JsTypedArray.Kind kind, int offset, int byteLength, int flags) {
    out.put(V8Tags.ARRAY_BUFFER_VIEW);
    out.put(kind.tag);
    out.putVarint(offset);
    out.putVarint(byteLength);
    out.putVarint(flags);
  }

  private static Object[] boxedElements(Object array) {
    if (array instanceof Object[] objects) {
      return objects;
    }
    Object[] boxed = new Object[Array.getLength(array)];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = Array.get(array, i);
    }
    return boxed;
  }

  /** A failure deep inside a value; containers add their step to the path on the way out. */
  private static final class PathError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final int PATH_ENDS = 8;
    private final Deque<String> steps = new ArrayDeque<>();

    PathError(String message) {
      super(message, null, false, false);
    }

    PathError under(String step) {
      steps.addFirst(step);
      return this;
    }

    /** The steps, the middle ones elided when there are many (a value nested too deeply). */
    String path() {
      if (steps.size() <= 2 * PATH_ENDS) {
        return String.join("", steps);
      }
      List<String> all = new ArrayList<>(steps);
      return String.join("", all.subList(0, PATH_ENDS)) + "…(" + (all.size() - 2 * PATH_ENDS)
          + " more)…" + String.join("", all.subList(all.size() - PATH_ENDS, all.size()));
    }
  }
}
