package dev.kvasir.dag.cbor;

import dev.kvasir.dag.cid.Cid;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The DAG-CBOR building blocks shared by the generic codec and the shard encoder: heads in
 * their shortest form, UTF-8 text, and tag-42 links ({@code d8 2a}, a byte string holding
 * {@code 0x00} and the binary CID; {@code docs/pail.md} §2).
 */
public final class Cbor {
  public static final int UNSIGNED = 0;
  public static final int NEGATIVE = 1;
  public static final int BYTES = 2;
  public static final int TEXT = 3;
  public static final int ARRAY = 4;
  public static final int MAP = 5;
  public static final int TAG = 6;
  public static final int SIMPLE = 7;
  public static final int CID_TAG = 42;

  private Cbor() {}

  /** Writes a head (major type and argument) in the shortest form. */
  public static void head(ByteArrayOutputStream out, int major, long argument) {
    int m = major << 5;
    if (argument >= 0 && argument < 24) {
      out.write(m | (int) argument);
    } else if (argument >= 0 && argument < 0x100) {
      out.write(m | 24);
      out.write((int) argument);
    } else if (argument >= 0 && argument < 0x10000) {
      out.write(m | 25);
      out.write((int) (argument >>> 8));
      out.write((int) argument);
    } else if (argument >= 0 && argument < 0x1_0000_0000L) {
      out.write(m | 26);
      for (int shift = 24; shift >= 0; shift -= 8) {
        out.write((int) (argument >>> shift));
      }
    } else {
      // Arguments ≥ 2^63 arrive as negative longs and are written as their unsigned bits.
      out.write(m | 27);
      for (int shift = 56; shift >= 0; shift -= 8) {
        out.write((int) (argument >>> shift));
      }
    }
  }

  /** The number of bytes {@link #head} writes for a non-negative argument. */
  public static int headSize(long argument) {
    if (argument < 24) {
      return 1;
    }
    if (argument < 0x100) {
      return 2;
    }
    if (argument < 0x10000) {
      return 3;
    }
    return argument < 0x1_0000_0000L ? 5 : 9;
  }

  public static void text(ByteArrayOutputStream out, String s) {
    byte[] utf8 = utf8(s);
    head(out, TEXT, utf8.length);
    out.writeBytes(utf8);
  }

  public static void link(ByteArrayOutputStream out, Cid cid) {
    head(out, TAG, CID_TAG);
    head(out, BYTES, cid.byteLength() + 1L);
    out.write(0);
    cid.writeTo(out);
  }

  /** The encoded size of a tag-42 link. */
  public static int linkSize(Cid cid) {
    return 2 + headSize(cid.byteLength() + 1L) + 1 + cid.byteLength();
  }

  /**
   * UTF-8 of a string that must be well-formed Unicode: a lone surrogate cannot be written
   * (JavaScript would silently store U+FFFD instead, {@code docs/pail.md} §4, E4).
   */
  public static byte[] utf8(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1));
        if (!paired) {
          throw new DagCborException("string has a lone surrogate U+"
              + Integer.toHexString(c).toUpperCase() + " at index " + i
              + "; strings must be well-formed Unicode");
        }
        i++;
      }
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
