package dev.kvasir.key;

import dev.kvasir.base.KvDecodeException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** UTF-8 as Deno's key codec uses it: lossy on the way in, strict on the way out. */
public final class Utf8 {
  private Utf8() {}

  /**
   * Replaces each lone surrogate with U+FFFD, as serde_v8 does when Deno turns a JS string into
   * a Rust {@code String} (docs/keys.md §2). Returns the same instance when nothing
   * needs replacing.
   */
  public static String replaceLoneSurrogates(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        boolean pair = Character.isHighSurrogate(c) && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1));
        if (!pair) {
          return replaceFrom(s, i);
        }
        i++;
      }
    }
    return s;
  }

  private static String replaceFrom(String s, int start) {
    StringBuilder out = new StringBuilder(s.length()).append(s, 0, start);
    for (int i = start; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\ufffd' : c);
      }
    }
    return out.toString();
  }

  /**
   * Decodes strict UTF-8 (no overlong forms, no encoded surrogates).
   *
   * @throws KvDecodeException naming {@code what} on invalid input
   */
  public static String decode(byte[] bytes, int offset, int length, String what) {
    if (isAscii(bytes, offset, length)) {
      return new String(bytes, offset, length, StandardCharsets.ISO_8859_1); // no checks needed
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, offset, length))
          .toString();
    } catch (CharacterCodingException e) {
      throw new KvDecodeException(what + ": invalid UTF-8");
    }
  }

  private static boolean isAscii(byte[] bytes, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] < 0) {
        return false;
      }
    }
    return true;
  }
}
