package dev.kvasir.dag.cbor;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.cid.CidFormatException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The strict decoder behind {@link DagCbor#decode}; one instance per input. */
final class DagCborReader {
  static final int MAX_DEPTH = 512;

  private final byte[] in;
  private int pos;

  DagCborReader(byte[] in) {
    this.in = in;
  }

  Object readAll() {
    if (in.length == 0) {
      throw new DagCborException("empty input is not DAG-CBOR");
    }
    Object value = read(0);
    if (pos != in.length) {
      throw fail(pos, (in.length - pos) + " trailing bytes after the value");
    }
    return value;
  }

  private Object read(int depth) {
    if (depth > MAX_DEPTH) {
      throw fail(pos, "nesting deeper than " + MAX_DEPTH);
    }
    int start = pos;
    int initial = next(start);
    int major = initial >>> 5;
    int info = initial & 31;
    if (major == Cbor.SIMPLE) {
      return simple(start, info);
    }
    long arg = argument(start, info);
    switch (major) {
      case Cbor.UNSIGNED:
        return arg >= 0 ? (Object) arg : new BigInteger(Long.toUnsignedString(arg));
      case Cbor.NEGATIVE:
        return arg >= 0 ? (Object) (-1 - arg)
            : new BigInteger(Long.toUnsignedString(arg)).add(BigInteger.ONE).negate();
      case Cbor.BYTES:
        return take(start, arg);
      case Cbor.TEXT:
        return text(start, arg);
      case Cbor.ARRAY:
        return array(start, arg, depth);
      case Cbor.MAP:
        return map(start, arg, depth);
      default:
        return tag(start, arg);
    }
  }

  private Object simple(int start, int info) {
    switch (info) {
      case 20:
        return Boolean.FALSE;
      case 21:
        return Boolean.TRUE;
      case 22:
        return null;
      case 27:
        long bits = 0;
        for (int i = 0; i < 8; i++) {
          bits = (bits << 8) | next(start);
        }
        double d = Double.longBitsToDouble(bits);
        if (!Double.isFinite(d)) {
          throw fail(start, "NaN and infinities are not allowed in DAG-CBOR");
        }
        return d;
      case 25:
      case 26:
        throw fail(start, "half and single precision floats are not allowed (float64 only)");
      case 23:
        throw fail(start, "undefined is not allowed in DAG-CBOR");
      case 31:
        throw fail(start, "indefinite-length items are not allowed in DAG-CBOR");
      default:
        throw fail(start, "simple value " + info + " is not allowed in DAG-CBOR");
    }
  }

  /** The head's argument, which must be in its shortest form. */
  private long argument(int start, int info) {
    if (info < 24) {
      return info;
    }
    int size;
    switch (info) {
      case 24: size = 1; break;
      case 25: size = 2; break;
      case 26: size = 4; break;
      case 27: size = 8; break;
      case 31: throw fail(start, "indefinite-length items are not allowed in DAG-CBOR");
      default: throw fail(start, "reserved additional information " + info);
    }
    long v = 0;
    for (int i = 0; i < size; i++) {
      v = (v << 8) | next(start);
    }
    long min = size == 1 ? 24 : size == 2 ? 0x100 : size == 4 ? 0x10000 : 0x1_0000_0000L;
    if (Long.compareUnsigned(v, min) < 0) {
      throw fail(start, "integer or length " + Long.toUnsignedString(v)
          + " is not in its shortest form");
    }
    return v;
  }

  private byte[] take(int start, long length) {
    requireInput(start, length);
    byte[] b = Arrays.copyOfRange(in, pos, pos + (int) length);
    pos += (int) length;
    return b;
  }

  private void requireInput(int start, long length) {
    if (length < 0 || length > in.length - pos) {
      throw fail(start, "length " + Long.toUnsignedString(length)
          + " runs past the end of the input");
    }
  }

  /**
   * The text string of {@code length} bytes at the position. ASCII, which pail keys (hex) and
   * map keys are, is taken as it is; anything else goes through a decoder that refuses invalid
   * UTF-8, which cost a quarter of listing a {@code dag:} database when every string took it.
   */
  private String text(int start, long length) {
    requireInput(start, length);
    int from = pos;
    int to = pos + (int) length;
    pos = to;
    boolean ascii = true;
    for (int i = from; i < to && ascii; i++) {
      ascii = in[i] >= 0;
    }
    if (ascii) {
      return new String(in, from, to - from, StandardCharsets.US_ASCII);
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(in, from, to - from)).toString();
    } catch (CharacterCodingException e) {
      throw fail(start, "text string is not valid UTF-8");
    }
  }

  private List<Object> array(int start, long count, int depth) {
    checkCount(start, count);
    List<Object> items = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      items.add(read(depth + 1));
    }
    return Collections.unmodifiableList(items);
  }

  private Map<String, Object> map(int start, long count, int depth) {
    checkCount(start, count);
    Map<String, Object> map = new LinkedHashMap<>();
    int previousFrom = -1; // where the previous key's bytes are in the input
    int previousTo = 0;
    for (long i = 0; i < count; i++) {
      int keyStart = pos;
      int head = next(keyStart);
      if (head >>> 5 != Cbor.TEXT) {
        throw fail(keyStart, "map keys must be text strings");
      }
      int keyFrom = pos;
      String key = text(keyStart, argument(keyStart, head & 31));
      if (previousFrom >= 0) {
        int order = DagCbor.compareKeys(in, previousFrom, previousTo, in, keyFrom, pos);
        if (order >= 0) {
          throw fail(keyStart, order == 0 ? "duplicate map key"
              : "map keys are not in canonical order (length first, then bytewise)");
        }
      }
      previousFrom = keyFrom;
      previousTo = pos;
      map.put(key, read(depth + 1));
    }
    return Collections.unmodifiableMap(map);
  }

  private Cid tag(int start, long tag) {
    if (tag != Cbor.CID_TAG) {
      throw fail(start, "tag " + Long.toUnsignedString(tag) + " is not allowed (only 42)");
    }
    int payloadStart = pos;
    int head = next(payloadStart);
    if (head >>> 5 != Cbor.BYTES) {
      throw fail(payloadStart, "tag 42 must hold a byte string");
    }
    byte[] payload = take(payloadStart, argument(payloadStart, head & 31));
    if (payload.length < 2 || payload[0] != 0) {
      throw fail(payloadStart, "tag 42 bytes must start with 0x00 followed by a CID");
    }
    try {
      return Cid.decode(Arrays.copyOfRange(payload, 1, payload.length));
    } catch (CidFormatException e) {
      throw fail(payloadStart, e.getMessage());
    }
  }

  /** Every item takes at least one byte, so a count beyond the input is rejected unread. */
  private void checkCount(int start, long count) {
    if (count < 0 || count > in.length - pos) {
      throw fail(start, "item count " + Long.toUnsignedString(count)
          + " exceeds the bytes left");
    }
  }

  private int next(int start) {
    if (pos >= in.length) {
      throw fail(start, "input ends inside an item");
    }
    return in[pos++] & 0xff;
  }

  private static DagCborException fail(int offset, String why) {
    return new DagCborException("invalid DAG-CBOR at byte " + offset + ": " + why);
  }
}
