package dev.kvasir;

import dev.kvasir.key.Hex;

/**
 * A stored entry cannot be read: its key is not a valid encoded key, its value encoding is
 * unknown, or its value bytes are malformed for their encoding. Only another program can store
 * such an entry (Kvasir and Deno refuse to write one). The message names the key, in hex and
 * parsed where it parses. While listing, the entry is skipped: the iterator goes on with the
 * next entry when asked again.
 */
public class KvCorruptEntryException extends KvDecodeException {
  private static final long serialVersionUID = 1L;

  private final byte[] key;

  public KvCorruptEntryException(byte[] key, String reason) {
    super("the entry at key " + describe(key) + " cannot be read: " + reason);
    this.key = key.clone();
  }

  /** The stored key bytes (a copy). */
  public byte[] key() {
    return key.clone();
  }

  /** {@code 0x0261…} and, when the bytes are a valid key, {@code ["a", …]}. */
  static String describe(byte[] key) {
    String hex = "0x" + Hex.encode(key);
    try {
      return hex + " " + KvKey.decode(key);
    } catch (KvDecodeException e) {
      return hex;
    }
  }
}
