package dev.kvasir.value;

import dev.kvasir.base.KvArgumentException;

/**
 * A JS {@code ArrayBuffer}: raw bytes that typed-array views share. Mutable, as in JS; a
 * resizable buffer also has a maximum length. Not thread-safe.
 */
public final class JsArrayBuffer {
  private final byte[] data;
  private final int maxByteLength;

  private JsArrayBuffer(byte[] data, int maxByteLength) {
    this.data = data;
    this.maxByteLength = maxByteLength;
  }

  /** A fixed-length buffer holding a copy of {@code bytes}. */
  public static JsArrayBuffer of(byte[] bytes) {
    return new JsArrayBuffer(bytes.clone(), -1);
  }

  /**
   * A resizable buffer ({@code new ArrayBuffer(n, {maxByteLength})}) holding a copy of {@code
   * bytes}.
   *
   * @throws KvArgumentException if {@code maxByteLength < bytes.length}
   */
  public static JsArrayBuffer resizable(byte[] bytes, int maxByteLength) {
    if (maxByteLength < bytes.length) {
      throw new KvArgumentException(
          "maxByteLength " + maxByteLength + " < byteLength " + bytes.length);
    }
    return new JsArrayBuffer(bytes.clone(), maxByteLength);
  }

  /** Wraps without copying; the reader owns its arrays. */
  static JsArrayBuffer wrap(byte[] bytes, int maxByteLength) {
    return new JsArrayBuffer(bytes, maxByteLength);
  }

  public int byteLength() {
    return data.length;
  }

  public boolean isResizable() {
    return maxByteLength >= 0;
  }

  /** The maximum length of a resizable buffer; the length of a fixed one. */
  public int maxByteLength() {
    return isResizable() ? maxByteLength : data.length;
  }

  /** The live contents: writes are visible to every view of this buffer. */
  public byte[] data() {
    return data;
  }

  @Override
  public String toString() {
    return "ArrayBuffer(" + data.length + ")";
  }
}
