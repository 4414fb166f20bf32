package dev.kvasir.value;

import dev.kvasir.base.KvDecodeException;

/** How a stored value's bytes are to be read: the {@code v_encoding} column of Deno's schema. */
public enum ValueEncoding {
  /** V8 ValueSerializer bytes. */
  V8(1),
  /** 8 bytes, unsigned little-endian: a top-level {@link KvU64}. */
  LE64(2),
  /** Raw bytes: a top-level {@code byte[]} (Uint8Array). */
  BYTES(3);

  private static final ValueEncoding[] ALL = values();

  private final int code;

  ValueEncoding(int code) {
    this.code = code;
  }

  /** The number Deno stores ({@code kv.v_encoding}) and KV Connect sends. */
  public int code() {
    return code;
  }

  /**
   * @throws KvDecodeException for a code Deno does not define
   */
  public static ValueEncoding ofCode(int code) {
    ValueEncoding e = find(code);
    if (e == null) {
      throw new KvDecodeException("The value encoding " + code + " is unknown");
    }
    return e;
  }

  /** The encoding with this code, or {@code null} for a code Deno does not define. */
  public static ValueEncoding find(int code) {
    for (ValueEncoding e : ALL) {
      if (e.code == code) {
        return e;
      }
    }
    return null;
  }
}
