package dev.kvasir.value;

import dev.kvasir.base.KvArgumentException;

/**
 * A JS regular expression: its source text and flags. Flags are kept in JS's canonical order
 * ({@code dgimsuvy}); an empty source becomes {@code (?:)} as in JS; the source is not
 * otherwise validated.
 */
public record JsRegExp(String source, String flags) {
  /** The flag letters in the order {@code RegExp.prototype.flags} prints them. */
  static final String CANONICAL_ORDER = "dgimsuvy";

  /**
   * @throws KvArgumentException for an unknown or repeated flag
   */
  public JsRegExp {
    if (source == null || flags == null) {
      throw new NullPointerException("source and flags must not be null");
    }
    flags = fromBits(toBits(flags));
    source = source.isEmpty() ? "(?:)" : source;
  }

  /** V8's flag bits: g=1, i=2, m=4, y=8, u=16, s=32, d=128, v=256 (docs/values.md §3). */
  int flagBits() {
    return toBits(flags);
  }

  static int toBits(String flags) {
    int bits = 0;
    for (int i = 0; i < flags.length(); i++) {
      int bit = bit(flags.charAt(i));
      if (bit == 0 || (bits & bit) != 0) {
        throw new KvArgumentException("invalid regular expression flags '" + flags + "'");
      }
      bits |= bit;
    }
    return bits;
  }

  static String fromBits(int bits) {
    StringBuilder out = new StringBuilder();
    for (char c : CANONICAL_ORDER.toCharArray()) {
      if ((bits & bit(c)) != 0) {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static int bit(char flag) {
    switch (flag) {
      case 'g': return 0x01;
      case 'i': return 0x02;
      case 'm': return 0x04;
      case 'y': return 0x08;
      case 'u': return 0x10;
      case 's': return 0x20;
      case 'd': return 0x80;
      case 'v': return 0x100;
      default: return 0;
    }
  }

  @Override
  public String toString() {
    return "/" + source + "/" + flags;
  }
}
