package dev.kvasir.value;

import dev.kvasir.base.KvDecodeException;
import dev.kvasir.internal.LargeStack;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Reads V8's ValueSerializer format as Deno's {@code core.deserialize} does, versions 13–16
 * (docs/values.md §3–§4). One instance per value; not thread-safe.
 *
 * <p>Hostile input is bounded: every length is checked against the bytes left before anything
 * is allocated, nesting is limited to {@link V8Tags#MAX_DEPTH} (values deeper than {@link
 * V8Tags#INLINE_DEPTH} are read on a {@link LargeStack}), and array holes are only
 * materialised within a budget proportional to the input (beyond it a {@link JsSparseArray} is
 * returned). Every failure is a {@link KvDecodeException}.
 */
final class V8Reader {
  private static final double MAX_DATE_MS = 8.64e15;

  private final byte[] in;
  private int pos;
  private byte version; // 13 to 16; bytes keep a reader, made per value, at 56 bytes
  private final int maxDepth;
  private int depth;
  /**
   * One for each object of this value that had no shape met before, two off for each that had
   * one, never below -32: past 16, the value stops looking for shapes, which cost its objects
   * time and save nothing when they mostly miss (a list of maps keyed by ids; docs/values.md §7).
   */
  private byte shapeMisses;
  private long holeBudget;
  /*
   * Objects by id, in the order V8 assigns ids; null while an object is being built. The first
   * two are fields, since most values hold no more (an object and an array in it): a table made
   * for every value was 32 of the bytes each listed entry allocated (docs/values.md §7).
   */
  private Object object0;
  private Object object1;
  /** Objects from id 2 on, made for a value that has a third. */
  private Object[] laterObjects;
  private int ids;

  private V8Reader(byte[] in, int maxDepth) {
    this.in = in;
    this.maxDepth = maxDepth;
    this.holeBudget = 65_536 + 16L * in.length;
  }

  static Object read(byte[] bytes) {
    try {
      return read(bytes, V8Tags.INLINE_DEPTH);
    } catch (LargeStack.Deeper | StackOverflowError e) {
      // An overflow here means a thread with an unusually small stack: the large one holds it.
      return LargeStack.call(() -> read(bytes, V8Tags.MAX_DEPTH));
    }
  }

  private static Object read(byte[] bytes, int maxDepth) {
    V8Reader reader = new V8Reader(bytes, maxDepth);
    try {
      reader.readHeader();
      Object value = reader.readValue();
      if (reader.pos != bytes.length) {
        throw reader.error((bytes.length - reader.pos) + " trailing bytes after the value");
      }
      return value;
    } catch (Malformed e) {
      throw new KvDecodeException("malformed V8 value at byte " + e.offset + ": " + e.getMessage());
    } catch (StackOverflowError e) {
      if (maxDepth < V8Tags.MAX_DEPTH) {
        throw e;
      }
      throw new KvDecodeException("value nested too deeply for a stack of "
          + (LargeStack.STACK_BYTES >> 20) + " MiB (depth " + reader.depth + ")");
    }
  }

  private void readHeader() {
    if (in.length == 0 || (in[0] & 0xff) != V8Tags.VERSION_TAG) {
      throw error("missing V8 header (0xff version)");
    }
    pos = 1;
    long v = readVarint();
    if (v < V8Tags.MIN_READ_VERSION || v > V8Tags.MAX_READ_VERSION) {
      throw error("unsupported V8 serialization version " + v + " (supported "
          + V8Tags.MIN_READ_VERSION + "–" + V8Tags.MAX_READ_VERSION + ")");
    }
    version = (byte) v;
  }

  /** A value, including a view that follows its buffer (V8 reads the pair as one value). */
  private Object readValue() {
    boolean nests = !isLeaf(peekTag());
    if (nests && ++depth > maxDepth) {
      if (maxDepth < V8Tags.MAX_DEPTH) {
        throw LargeStack.Deeper.SIGNAL;
      }
      throw error("nested deeper than " + V8Tags.MAX_DEPTH + " levels");
    }
    int idsBefore = ids;
    Object value = readObject();
    if (value instanceof JsArrayBuffer buffer && peekTag() == V8Tags.ARRAY_BUFFER_VIEW) {
      readTag();
      // A buffer read just now took one new id; a back-reference to an older one took none.
      value = readView(buffer, ids == idsBefore + 1);
    }
    if (nests) {
      depth--;
    }
    return value;
  }

  /**
   * Whether a value of this tag holds no other value, so that it is not a level of nesting: the
   * values V8Writer writes without counting a level, for both to agree on a value's depth.
   */
  private static boolean isLeaf(int tag) {
    return switch (tag) {
      case V8Tags.UNDEFINED, V8Tags.NULL, V8Tags.TRUE, V8Tags.FALSE, V8Tags.INT32,
          V8Tags.UINT32, V8Tags.DOUBLE, V8Tags.BIGINT, V8Tags.ONE_BYTE_STRING,
          V8Tags.TWO_BYTE_STRING, V8Tags.UTF8_STRING, V8Tags.OBJECT_REFERENCE -> true;
      default -> false;
    };
  }

  private Object readObject() {
    int tag = readTag();
    while (tag == V8Tags.VERIFY_OBJECT_COUNT) {
      readVarint(); // a count V8 itself ignores
      tag = readTag();
    }
    switch (tag) {
      case V8Tags.UNDEFINED: return Undefined.INSTANCE;
      case V8Tags.NULL: return null;
      case V8Tags.TRUE: return Boolean.TRUE;
      case V8Tags.FALSE: return Boolean.FALSE;
      case V8Tags.INT32: return (double) readInt32();
      case V8Tags.UINT32: return (double) readUint32();
      case V8Tags.DOUBLE: return readDouble();
      case V8Tags.BIGINT: return readBigInt();
      case V8Tags.ONE_BYTE_STRING:
      case V8Tags.TWO_BYTE_STRING:
      case V8Tags.UTF8_STRING:
        return readStringBody(tag);
      case V8Tags.OBJECT_REFERENCE: return readReference();
      case V8Tags.BEGIN_OBJECT: return readJsObject();
      case V8Tags.BEGIN_DENSE_ARRAY: return readDenseArray();
      case V8Tags.BEGIN_SPARSE_ARRAY: return readSparseArray();
      case V8Tags.BEGIN_MAP: return readMap();
      case V8Tags.BEGIN_SET: return readSet();
      case V8Tags.ERROR: return readError();
      case V8Tags.DATE: return register(readDate());
      case V8Tags.REGEXP: return readRegExp();
      case V8Tags.TRUE_OBJECT: return register(new JsBoxed.Bool(true));
      case V8Tags.FALSE_OBJECT: return register(new JsBoxed.Bool(false));
      case V8Tags.NUMBER_OBJECT: return register(new JsBoxed.Num(readDouble()));
      case V8Tags.BIGINT_OBJECT: return register(new JsBoxed.BigInt(readBigInt()));
      case V8Tags.STRING_OBJECT: return readBoxedString();
      case V8Tags.ARRAY_BUFFER: return readArrayBuffer(false);
      case V8Tags.RESIZABLE_ARRAY_BUFFER: return readArrayBuffer(true);
      case V8Tags.ARRAY_BUFFER_VIEW: throw error("array buffer view without a buffer");
      case V8Tags.HOST_OBJECT:
        // docs/values.md §5: Deno's Blob and File, and Node's typed arrays, use this tag.
        throw error("host object (a Deno Blob or File, or a typed array, DataView or Buffer"
            + " inside a value written by Node's v8.serialize), which neither Deno nor Kvasir"
            + " reads");
      default:
        throw error(String.format("invalid tag 0x%02x", tag));
    }
  }

  private int newId() {
    int id = ids++;
    if (id > 1) {
      if (laterObjects == null) {
        laterObjects = new Object[4];
      } else if (id - 2 == laterObjects.length) {
        laterObjects = Arrays.copyOf(laterObjects, laterObjects.length * 2);
      }
    }
    return id;
  }

  /** Gives the object its id once it exists, so that references inside it can reach it. */
  private void bind(int id, Object object) {
    if (id > 1) {
      laterObjects[id - 2] = object;
    } else if (id == 0) {
      object0 = object;
    } else {
      object1 = object;
    }
  }

  private <T> T register(T object) {
    bind(newId(), object);
    return object;
  }

  /** The object with id {@code id}; null if it has none yet or is still being built. */
  private Object objectWithId(long id) {
    if (id >= ids) {
      return null;
    }
    return id > 1 ? laterObjects[(int) id - 2] : id == 0 ? object0 : object1;
  }

  private Object readReference() {
    long id = readVarint();
    Object object = objectWithId(id);
    if (object == null) {
      throw error("reference to unknown object id " + id);
    }
    return object;
  }

  private Object readJsObject() {
    JsObject object = new JsObject();
    bind(newId(), object);
    long count = 0;
    boolean indexKeys = false;
    boolean sharedKeys = true; // every key from PropertyNames, so that shapes can match by ==
    int shapeSlot = -1;
    while (!consumeIf(V8Tags.END_OBJECT)) {
      String key;
      if (peekTag() == V8Tags.ONE_BYTE_STRING) {
        key = readPropertyName();
        sharedKeys &= key.length() <= PropertyNames.MAX_LENGTH;
      } else {
        key = propertyKey(readValue());
        sharedKeys = false;
      }
      if (count == 0 && sharedKeys) {
        shapeSlot = shapeSlot(key);
      }
      indexKeys |= ArrayIndex.mayBeIndex(key);
      object.addDecoded(key, readValue(), shapeSlot);
      count++;
    }
    expectCount("object properties", count);
    if (indexKeys) {
      ArrayIndex.sortProperties(object);
    }
    endShape(object, shapeSlot, sharedKeys && !indexKeys);
    return object;
  }

  /** The slot of shapes for an object that begins with {@code first}, or -1 to look for none. */
  private int shapeSlot(String first) {
    return shapeMisses <= 16 ? ObjectShapes.slot(first, depth) : -1;
  }

  /**
   * Ends the decoding of an object that looked for a shape; one that did not (slot -1) never
   * took one and owns its names, so there is nothing to end.
   */
  private void endShape(JsObject object, int slot, boolean shareable) {
    if (slot < 0) {
      return;
    }
    if (object.endDecoded(slot, shareable)) {
      shapeMisses = (byte) Math.max(shapeMisses - 2, -32);
    } else {
      shapeMisses++;
    }
  }

  private Object readDenseArray() {
    int id = newId();
    long length = readUint32();
    // An element takes a byte at least. The message is only built for input that fails:
    // building it for every array showed in profiles of lists.
    if (!hasBytes(length)) {
      throw tooFewBytes(length, "dense array of " + length + " elements");
    }
    JsArray array = new JsArray((int) length);
    bind(id, array);
    for (long i = 0; i < length; i++) {
      array.add(consumeIf(V8Tags.THE_HOLE) ? Hole.INSTANCE : readValue());
    }
    long count = readArrayProperties(V8Tags.END_DENSE_ARRAY, array, null, length);
    expectCount("array properties", count);
    expectCount("array length", length);
    return array;
  }

  private Object readSparseArray() {
    int id = newId();
    long length = readUint32();
    JsArray list = null;
    JsSparseArray sparse = null;
    if (length <= holeBudget) {
      holeBudget -= length;
      list = new JsArray((int) length);
      for (long i = 0; i < length; i++) {
        list.add(Hole.INSTANCE);
      }
      bind(id, list);
    } else {
      sparse = new JsSparseArray(length);
      bind(id, sparse);
    }
    long count = readArrayProperties(V8Tags.END_SPARSE_ARRAY, list, sparse, length);
    expectCount("array properties", count);
    expectCount("array length", length);
    return list != null ? list : sparse;
  }

  /** Key/value pairs up to {@code endTag}: indices set elements, other keys are properties. */
  private long readArrayProperties(int endTag, JsArray list, JsSparseArray sparse, long length) {
    long count = 0;
    while (!consumeIf(endTag)) {
      Object key = readValue();
      Object value = readValue();
      long index = key instanceof Double d ? indexOf(d) : ArrayIndex.parse(propertyKey(key));
      if (index >= 0 && (list != null || sparse != null)) {
        if (index >= length) {
          throw error("array index " + index + " beyond length " + length);
        }
        if (list != null) {
          list.set((int) index, value);
        } else {
          sparse.set(index, value);
        }
      } else {
        (list != null ? list.properties() : sparse.properties()).put(propertyKey(key), value);
      }
      count++;
    }
    return count;
  }

  private static long indexOf(double d) {
    return d >= 0 && d <= ArrayIndex.MAX && d == Math.floor(d) ? (long) d : -1;
  }

  /** A one-byte string key, shared with other objects that have it (see {@link PropertyNames}). */
  private String readPropertyName() {
    readTag();
    int n = readStringLength();
    String name = PropertyNames.latin1(in, pos, n);
    pos += n;
    return name;
  }

  /** The byte length of a string body, checked against the bytes left. */
  private int readStringLength() {
    long length = readVarint();
    requireBytes(length, "string");
    return (int) length;
  }

  /** V8 accepts strings and numbers as property keys; numbers name the same property as text. */
  private String propertyKey(Object key) {
    if (key instanceof String s) {
      return s;
    }
    if (key instanceof Double d) {
      return JsFormat.numberToString(d);
    }
    throw error("property key must be a string or a number");
  }

  private Object readMap() {
    JsMap map = new JsMap();
    bind(newId(), map);
    long count = 0;
    while (!consumeIf(V8Tags.END_MAP)) {
      Object key = readValue();
      map.put(key, readValue());
      count += 2;
    }
    expectCount("map keys and values", count);
    return map;
  }

  private Object readSet() {
    JsSet set = new JsSet();
    bind(newId(), set);
    long count = 0;
    while (!consumeIf(V8Tags.END_SET)) {
      set.add(readValue());
      count++;
    }
    expectCount("set values", count);
    return set;
  }

  /** V8 applies TimeClip: NaN or beyond ±8.64e15 ms is an invalid date; fractions truncate. */
  private Object readDate() {
    double ms = readDouble();
    if (Double.isNaN(ms) || Math.abs(ms) > MAX_DATE_MS) {
      return InvalidDate.INSTANCE;
    }
    return Instant.ofEpochMilli((long) ms);
  }

  private Object readRegExp() {
    int id = newId();
    String source = readString();
    long flags = readVarint();
    if ((flags & ~V8Tags.REGEXP_FLAG_MASK) != 0) {
      throw error("invalid regular expression flags 0x" + Long.toHexString(flags));
    }
    JsRegExp regexp = new JsRegExp(source, JsRegExp.fromBits((int) flags));
    bind(id, regexp);
    return regexp;
  }

  private Object readBoxedString() {
    int id = newId();
    JsBoxed.Str boxed = new JsBoxed.Str(readString());
    bind(id, boxed);
    return boxed;
  }

  private Object readError() {
    int id = newId();
    int tag = readVarintByte();
    JsError.Kind kind = JsError.Kind.ERROR;
    for (JsError.Kind k : JsError.Kind.values()) {
      if (k != JsError.Kind.ERROR && k.tag == tag) {
        kind = k;
        tag = readVarintByte();
        break;
      }
    }
    String message = null;
    String stack = null;
    if (tag == V8Tags.ERROR_MESSAGE) {
      message = readString();
      tag = readVarintByte();
    }
    if (tag == V8Tags.ERROR_STACK) {
      stack = readString();
      tag = readVarintByte();
    }
    JsError error;
    if (tag == V8Tags.ERROR_CAUSE) {
      error = JsError.withCause(kind, message, stack, readValue());
      tag = readVarintByte();
    } else {
      error = JsError.of(kind, message, stack);
    }
    if (tag != V8Tags.ERROR_END) {
      throw error(String.format("invalid error sub-tag 0x%02x", tag));
    }
    bind(id, error);
    return error;
  }

  private Object readArrayBuffer(boolean resizable) {
    int id = newId();
    long byteLength = readVarint();
    long maxByteLength = resizable ? readVarint() : -1;
    if (resizable && (maxByteLength < byteLength || maxByteLength > Integer.MAX_VALUE)) {
      throw error("resizable buffer maxByteLength " + maxByteLength + " invalid for length "
          + byteLength);
    }
    byte[] data = readBytes(byteLength, "array buffer");
    JsArrayBuffer buffer = JsArrayBuffer.wrap(data, (int) maxByteLength);
    bind(id, buffer);
    return buffer;
  }

  /**
   * A view over {@code buffer}. A Uint8Array exactly covering a buffer just read for it is the
   * common case of a nested {@code Uint8Array} and reads as a plain {@code byte[]}.
   */
  private Object readView(JsArrayBuffer buffer, boolean freshBuffer) {
    int id = newId();
    int subTag = readVarintByte();
    long offset = readVarint();
    long byteLength = readVarint();
    long flags = version >= V8Tags.VIEW_FLAGS_VERSION ? readVarint() : 0;
    JsTypedArray.Kind kind = JsTypedArray.Kind.ofTag(subTag);
    if (kind == null) {
      throw error(String.format("invalid array buffer view type 0x%02x", subTag));
    }
    if (offset > buffer.byteLength() || byteLength > buffer.byteLength() - offset) {
      throw error("view [" + offset + ", +" + byteLength + ") outside buffer of "
          + buffer.byteLength() + " bytes");
    }
    if (offset % kind.elementSize != 0 || byteLength % kind.elementSize != 0) {
      throw error(kind.jsName() + " view misaligned: offset " + offset + ", length "
          + byteLength);
    }
    boolean lengthTracking = (flags & 1) != 0;
    boolean backedByResizable = (flags & 2) != 0;
    if ((flags & ~3L) != 0 || backedByResizable != buffer.isResizable()
        || (lengthTracking && !backedByResizable)) {
      throw error("view flags " + flags + " do not match the buffer");
    }
    Object view;
    if (kind == JsTypedArray.Kind.UINT8_ARRAY && freshBuffer && flags == 0 && offset == 0
        && byteLength == buffer.byteLength()) {
      view = buffer.data(); // shares the buffer's bytes, as the JS view would
    } else {
      view = JsTypedArray.ofBytes(kind, buffer, (int) offset, (int) byteLength, lengthTracking);
    }
    bind(id, view);
    return view;
  }

  private String readString() {
    Object value = readValue();
    if (!(value instanceof String s)) {
      throw error("expected a string");
    }
    return s;
  }

  private String readStringBody(int tag) {
    int n = readStringLength();
    int start = pos;
    if (tag == V8Tags.ONE_BYTE_STRING) {
      pos += n;
      if (n == 1) {
        return OneCharStrings.of(in[start]);
      }
      return new String(in, start, n, StandardCharsets.ISO_8859_1);
    }
    if (tag == V8Tags.UTF8_STRING) {
      pos += n;
      return new String(in, start, n, StandardCharsets.UTF_8); // V8 also replaces invalid bytes
    }
    if ((n & 1) != 0) {
      throw error("two-byte string with odd byte length " + n);
    }
    // Not a charset decoder: it would replace lone surrogates, which JS strings may hold.
    char[] chars = new char[n / 2];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = (char) ((in[start + 2 * i] & 0xff) | (in[start + 2 * i + 1] & 0xff) << 8);
    }
    pos += n;
    return new String(chars);
  }

  private BigInteger readBigInt() {
    long bitfield = readVarint();
    long byteLength = bitfield >>> 1;
    boolean negative = (bitfield & 1) != 0;
    if (negative && byteLength == 0) {
      throw error("negative bigint of zero length");
    }
    byte[] littleEndian = readBytes(byteLength, "bigint");
    byte[] bigEndian = new byte[littleEndian.length];
    for (int i = 0; i < bigEndian.length; i++) {
      bigEndian[i] = littleEndian[littleEndian.length - 1 - i];
    }
    BigInteger magnitude = new BigInteger(1, bigEndian);
    return negative ? magnitude.negate() : magnitude;
  }

  private void expectCount(String what, long actual) {
    long expected = readVarint();
    if (expected != actual) {
      throw error(what + ": header says " + expected + ", found " + actual);
    }
  }

  // --- primitives --------------------------------------------------------------------------

  /** The next tag, skipping padding. */
  private int readTag() {
    int tag;
    do {
      if (pos >= in.length) {
        throw error("truncated: expected a tag");
      }
      tag = in[pos++] & 0xff;
    } while (tag == V8Tags.PADDING);
    return tag;
  }

  /** The next tag without consuming it, or −1 at the end. */
  private int peekTag() {
    int p = pos;
    while (p < in.length && in[p] == V8Tags.PADDING) {
      p++;
    }
    return p < in.length ? in[p] & 0xff : -1;
  }

  private boolean consumeIf(int tag) {
    if (peekTag() == tag) {
      readTag();
      return true;
    }
    if (peekTag() < 0) {
      throw error("truncated: expected a value or an end tag");
    }
    return false;
  }

  private long readVarint() {
    long value = 0;
    for (int shift = 0; ; shift += 7) {
      if (pos >= in.length) {
        throw error("truncated varint");
      }
      int b = in[pos++] & 0xff;
      if (shift == 63 && (b & 0x7f) != 0 || shift > 63) {
        throw error("varint overflows 63 bits"); // keeps every value a non-negative long
      }
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
  }

  private long readUint32() {
    long value = readVarint();
    if (value > 0xffffffffL) {
      throw error("varint " + Long.toUnsignedString(value) + " exceeds 32 bits");
    }
    return value;
  }

  private int readInt32() {
    int zigzag = (int) readUint32();
    return (zigzag >>> 1) ^ -(zigzag & 1);
  }

  private int readVarintByte() {
    long value = readVarint();
    if (value > 0xff) {
      throw error("sub-tag " + value + " exceeds one byte");
    }
    return (int) value;
  }

  private double readDouble() {
    requireBytes(8, "double");
    long bits = 0;
    for (int i = 7; i >= 0; i--) {
      bits = bits << 8 | (in[pos + i] & 0xff);
    }
    pos += 8;
    return Double.longBitsToDouble(bits);
  }

  private byte[] readBytes(long length, String what) {
    requireBytes(length, what);
    byte[] out = new byte[(int) length];
    System.arraycopy(in, pos, out, 0, out.length);
    pos += out.length;
    return out;
  }

  private void requireBytes(long length, String what) {
    if (!hasBytes(length)) {
      throw tooFewBytes(length, what);
    }
  }

  private boolean hasBytes(long length) {
    return length >= 0 && length <= in.length - pos;
  }

  private Malformed tooFewBytes(long length, String what) {
    return error(what + " needs " + Long.toUnsignedString(length) + " bytes, "
        + (in.length - pos) + " left");
  }

  private Malformed error(String message) {
    return new Malformed(message, pos);
  }

  /** Internal carrier so the public exception is made once, with the offset. */
  private static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int offset;

    Malformed(String message, int offset) {
      super(message, null, false, false);
      this.offset = offset;
    }
  }
}
