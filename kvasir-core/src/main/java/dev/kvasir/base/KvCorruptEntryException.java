package dev.kvasir.base;

import org.jspecify.annotations.Nullable;

/**
 * A stored entry cannot be read: its key is not a valid encoded key, its value encoding is
 * unknown, or its value bytes are malformed for their encoding. Only another program can store
 * such an entry (Kvasir and Deno refuse to write one). The message names the key, in hex and,
 * where the key decodes, as text. While listing, the entry is skipped: the iterator goes on with
 * the next entry when asked again.
 */
public class KvCorruptEntryException extends KvDecodeException {
  private static final long serialVersionUID = 1L;

  private final byte[] key;

  /**
   * @param key the stored key bytes
   * @param keyText the key as text, such as {@code ["k",0.5]}, or null when it does not decode
   * @param reason what is wrong with the entry
   */
  public KvCorruptEntryException(byte[] key, @Nullable String keyText, String reason) {
    super("the entry at key 0x" + Hex.encode(key) + (keyText == null ? "" : " " + keyText)
        + " cannot be read: " + reason);
    this.key = key.clone();
  }

  /** The stored key bytes (a copy). */
  public byte[] key() {
    return key.clone();
  }
}
