package dev.kvasir.value;

/**
 * V8's ValueSerializer format, byte-compatible with what Deno stores for KV values
 * (docs/values.md §3). Java values map to JS values as docs/values.md §7 says:
 * {@code null}, {@link Undefined}, {@code Boolean}, numbers ({@code Double} on read), {@code
 * BigInteger}, {@code String}, {@code byte[]} (Uint8Array), {@code List}/arrays (holes as {@link
 * Hole}), {@code Map} with string keys and records (objects), {@link JsMap} (or a {@code Map}
 * with other keys), {@link JsSet} (or any {@code Set}), {@code Instant}/{@code Date}, {@link
 * JsRegExp}, {@link JsError}, {@link JsBoxed}, {@link JsArrayBuffer}, {@link JsTypedArray},
 * with shared references and cycles preserved. Objects read back are mutable maps in property
 * order.
 *
 * <pre>{@code
 * byte[] bytes = V8.serialize(Map.of("a", 1));   // ff 10 6f 22 01 61 49 02 7b 01
 * Object back = V8.deserialize(bytes);          // {a=1.0}
 * }</pre>
 *
 * Thread-safe: stateless.
 */
public final class V8 {
  /**
   * The deepest nesting of values read or written: deeper than any value of the 65 536 bytes
   * Deno allows can nest (docs/values.md §8).
   */
  public static final int MAX_DEPTH = V8Tags.MAX_DEPTH;

  private V8() {}

  /**
   * Serializes with header {@code ff 10}, as Deno 2.9.6 does.
   *
   * @throws dev.kvasir.base.KvTypeException naming the path inside the value and the unsupported
   *     type or value ({@code value.items[3].owner: java.io.File is not serializable})
   */
  public static byte[] serialize(Object value) {
    return V8Writer.write(value, null);
  }

  /**
   * Serializes as {@link #serialize(Object)} does, asking {@code adapter} for every object the
   * JS value model does not hold (an enum, a {@code UUID}, a JavaBean, an {@code Instant} finer
   * than milliseconds).
   *
   * @throws dev.kvasir.base.KvTypeException naming the path inside the value of what neither
   *     the model nor the adapter takes
   */
  public static byte[] serialize(Object value, JsAdapter adapter) {
    return V8Writer.write(value, adapter);
  }

  /**
   * Deserializes format versions 13–16.
   *
   * @throws dev.kvasir.base.KvDecodeException on malformed input, naming the byte offset
   */
  public static Object deserialize(byte[] bytes) {
    return V8Reader.read(bytes);
  }
}
