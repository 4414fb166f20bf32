package dev.kvasir;

import dev.kvasir.base.KvArgumentException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Deno's list cursors (docs/list.md): base64url, with {@code =} padding, of the last
 * key's bytes after the selector's common prefix.
 */
final class Cursors {
  private Cursors() {}

  static String encode(byte[] commonPrefix, byte[] key) {
    if (key.length < commonPrefix.length
        || !Arrays.equals(key, 0, commonPrefix.length, commonPrefix, 0, commonPrefix.length)) {
      throw new IllegalStateException("Invalid boundary key");
    }
    return Base64.getUrlEncoder().encodeToString(
        Arrays.copyOfRange(key, commonPrefix.length, key.length));
  }

  /**
   * The key bytes after the common prefix.
   *
   * @throws KvArgumentException {@code invalid cursor} unless canonical padded base64url
   */
  static byte[] decode(String cursor) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      throw invalid(cursor);
    }
    // The JDK decoder accepts missing padding and non-zero trailing bits; Deno does not.
    if (!Base64.getUrlEncoder().encodeToString(bytes).equals(cursor)) {
      throw invalid(cursor);
    }
    return bytes;
  }

  private static KvArgumentException invalid(String cursor) {
    return new KvArgumentException("invalid cursor: '" + cursor + "'");
  }
}
