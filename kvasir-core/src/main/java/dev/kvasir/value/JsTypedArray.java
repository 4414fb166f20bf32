package dev.kvasir.value;

import dev.kvasir.base.KvArgumentException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A typed-array or {@code DataView} over a {@link JsArrayBuffer}. A {@code Uint8Array} that
 * exactly covers a buffer of its own reads back as a plain {@code byte[]}; every other view
 * (other element types, sub-ranges, shared or resizable buffers) reads back as this type so
 * that nothing about it is lost.
 */
public final class JsTypedArray {
  /** The view types, with V8's sub-tag and the element size. */
  public enum Kind {
    INT8_ARRAY('b', 1, "Int8Array"),
    UINT8_ARRAY('B', 1, "Uint8Array"),
    UINT8_CLAMPED_ARRAY('C', 1, "Uint8ClampedArray"),
    INT16_ARRAY('w', 2, "Int16Array"),
    UINT16_ARRAY('W', 2, "Uint16Array"),
    INT32_ARRAY('d', 4, "Int32Array"),
    UINT32_ARRAY('D', 4, "Uint32Array"),
    FLOAT16_ARRAY('h', 2, "Float16Array"),
    FLOAT32_ARRAY('f', 4, "Float32Array"),
    FLOAT64_ARRAY('F', 8, "Float64Array"),
    BIGINT64_ARRAY('q', 8, "BigInt64Array"),
    BIGUINT64_ARRAY('Q', 8, "BigUint64Array"),
    DATA_VIEW('?', 1, "DataView");

    final int tag;
    final int elementSize;
    private final String jsName;

    Kind(int tag, int elementSize, String jsName) {
      this.tag = tag;
      this.elementSize = elementSize;
      this.jsName = jsName;
    }

    public int elementSize() {
      return elementSize;
    }

    /** The JS constructor name, e.g. {@code Float64Array}. */
    public String jsName() {
      return jsName;
    }

    public static Kind ofJsName(String name) {
      for (Kind k : values()) {
        if (k.jsName.equals(name)) {
          return k;
        }
      }
      throw new KvArgumentException("not a typed array type: " + name);
    }

    static Kind ofTag(int tag) {
      for (Kind k : values()) {
        if (k.tag == tag) {
          return k;
        }
      }
      return null;
    }
  }

  private final Kind kind;
  private final JsArrayBuffer buffer;
  private final int byteOffset;
  private final int byteLength;
  private final boolean lengthTracking;

  private JsTypedArray(Kind kind, JsArrayBuffer buffer, int byteOffset, int byteLength,
      boolean lengthTracking) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.buffer = Objects.requireNonNull(buffer, "buffer");
    if (byteOffset < 0 || byteLength < 0 || byteOffset > buffer.byteLength() - byteLength) {
      throw new KvArgumentException("view [" + byteOffset + ", +" + byteLength
          + ") outside buffer of " + buffer.byteLength() + " bytes");
    }
    if (byteOffset % kind.elementSize != 0 || byteLength % kind.elementSize != 0) {
      throw new KvArgumentException(kind.jsName + " offset and length must be multiples of "
          + kind.elementSize + ": offset " + byteOffset + ", byteLength " + byteLength);
    }
    if (lengthTracking && !buffer.isResizable()) {
      throw new KvArgumentException("a length-tracking view needs a resizable buffer");
    }
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
    this.lengthTracking = lengthTracking;
  }

  /**
   * A view of {@code length} elements ({@code byteLength} for a DataView) starting at byte
   * {@code byteOffset} of {@code buffer}.
   *
   * @throws KvArgumentException if the view does not fit the buffer or is misaligned
   */
  public static JsTypedArray of(Kind kind, JsArrayBuffer buffer, int byteOffset, int length) {
    return new JsTypedArray(kind, buffer, byteOffset, Math.multiplyExact(length,
        kind.elementSize), false);
  }

  /** A view over a fresh buffer holding a copy of {@code bytes}. */
  public static JsTypedArray of(Kind kind, byte[] bytes) {
    return new JsTypedArray(kind, JsArrayBuffer.of(bytes), 0, bytes.length, false);
  }

  static JsTypedArray ofBytes(Kind kind, JsArrayBuffer buffer, int byteOffset, int byteLength,
      boolean lengthTracking) {
    return new JsTypedArray(kind, buffer, byteOffset, byteLength, lengthTracking);
  }

  public Kind kind() {
    return kind;
  }

  public JsArrayBuffer buffer() {
    return buffer;
  }

  public int byteOffset() {
    return byteOffset;
  }

  public int byteLength() {
    return byteLength;
  }

  /** Number of elements (bytes, for a DataView). */
  public int length() {
    return byteLength / kind.elementSize;
  }

  /** Whether the view follows a resizable buffer's length ({@code new Uint8Array(rab)}). */
  public boolean isLengthTracking() {
    return lengthTracking;
  }

  /** A copy of the viewed bytes (little-endian element data). */
  public byte[] toByteArray() {
    return Arrays.copyOfRange(buffer.data(), byteOffset, byteOffset + byteLength);
  }

  @Override
  public String toString() {
    return kind.jsName + "(" + length() + ")";
  }
}
