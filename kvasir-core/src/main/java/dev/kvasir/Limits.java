package dev.kvasir;

/**
 * Deno KV's limits (reference/denokv.md §7), checked once, before any engine is called. Each
 * failure is a {@link KvLimitException} that names the value and the limit.
 */
public final class Limits {
  /** Largest encoded key a write may use. */
  public static final int MAX_WRITE_KEY_BYTES = 2048;
  /** Largest encoded range bound a read may use; a get needs {@code key‖00}. */
  public static final int MAX_READ_KEY_BYTES = 2049;
  /** Largest stored value (V8 bytes, raw bytes, or 8 for a KvU64). */
  public static final int MAX_VALUE_BYTES = 65536;

  private Limits() {}

  /** A key used by a set, delete, sum/min/max or check: non-empty, at most 2048 bytes. */
  public static void checkWriteKey(KvKey key) {
    if (key.isEmpty()) {
      throw new KvLimitException("key cannot be empty");
    }
    if (key.encodedLength() > MAX_WRITE_KEY_BYTES) {
      throw new KvLimitException("key too large for write: " + key.encodedLength()
          + " bytes (max " + MAX_WRITE_KEY_BYTES + ")");
    }
  }

  /** A key read by get, getMany or watch: its range end {@code key‖00} fits 2049 bytes. */
  public static void checkReadKey(KvKey key) {
    checkReadBound(key.encodedLength() + 1);
  }

  /** An encoded range bound of a read. */
  public static void checkReadBound(int encodedLength) {
    if (encodedLength > MAX_READ_KEY_BYTES) {
      throw new KvLimitException("key too large for read: " + encodedLength
          + " bytes (max " + MAX_READ_KEY_BYTES + ")");
    }
  }

  /** An encoded value. */
  public static void checkValue(int encodedLength) {
    if (encodedLength > MAX_VALUE_BYTES) {
      throw new KvLimitException("value too large: " + encodedLength
          + " bytes (max " + MAX_VALUE_BYTES + ")");
    }
  }
}
