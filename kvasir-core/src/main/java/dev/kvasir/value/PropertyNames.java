package dev.kvasir.value;

import java.nio.charset.StandardCharsets;

/**
 * Shared String instances for short one-byte property names, as JSON parsers canonicalise field
 * names: the objects of one shape (every {@code {i, name, tags}} of a list) then share their
 * keys instead of each holding copies, which saves allocation while decoding and heap for
 * values kept. A fixed table where a newcomer replaces what was in its slot, so its size is
 * bounded whatever names arrive. Thread-safe: Strings are immutable, so a racy slot is only a
 * cache miss.
 */
final class PropertyNames {
  private static final int SLOTS = 1024; // a power of two
  /** Longest name shared: a longer one is a new String each time. */
  static final int MAX_LENGTH = 32;
  private static final String[] TABLE = new String[SLOTS];

  private PropertyNames() {}

  /** The name held in {@code length} one-byte (Latin-1) characters at {@code in[start]}. */
  static String latin1(byte[] in, int start, int length) {
    if (length > MAX_LENGTH) {
      return new String(in, start, length, StandardCharsets.ISO_8859_1);
    }
    int hash = 0;
    for (int i = start; i < start + length; i++) {
      hash = 31 * hash + (in[i] & 0xff);
    }
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    String cached = TABLE[slot];
    if (cached != null && sameText(cached, in, start, length)) {
      return cached;
    }
    String name = new String(in, start, length, StandardCharsets.ISO_8859_1);
    TABLE[slot] = name;
    return name;
  }

  private static boolean sameText(String s, byte[] in, int start, int length) {
    if (s.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (s.charAt(i) != (in[start + i] & 0xff)) {
        return false;
      }
    }
    return true;
  }
}
