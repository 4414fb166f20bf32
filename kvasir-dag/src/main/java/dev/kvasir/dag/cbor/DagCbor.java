package dev.kvasir.dag.cbor;

import dev.kvasir.dag.cid.Cid;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical DAG-CBOR for a plain Java data model:
 *
 * <ul>
 *   <li>{@code null}, {@link Boolean}, {@link Long} (also {@link Integer}, {@link Short},
 *       {@link Byte}), {@link BigInteger} for integers outside the long range (within
 *       ±2^64), {@link Double} (finite only), {@link String}, {@code byte[]},
 *       {@link List}, {@link Map} with {@link String} keys, and {@link Cid} (tag 42).</li>
 * </ul>
 *
 * <p>{@link #encode} writes definite lengths, shortest heads, float64 for every double and map
 * keys sorted by encoded length, then bytewise. {@link #decode} is strict and accepts only
 * that form: anything else (indefinite lengths, non-minimal heads, half/single floats, NaN or
 * infinities, undefined, tags other than 42, unsorted or duplicate map keys, invalid UTF-8,
 * trailing bytes) is rejected with the offending byte offset. Decoded lists and maps are
 * unmodifiable; maps iterate in canonical order.
 */
public final class DagCbor {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private DagCbor() {}

  public static byte[] encode(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(out, value, 0);
    return out.toByteArray();
  }

  public static Object decode(byte[] bytes) {
    return new DagCborReader(bytes).readAll();
  }

  /** The links (CIDs) in a decoded value, in the order the value holds them. */
  public static List<Cid> links(Object value) {
    List<Cid> out = new ArrayList<>();
    collectLinks(value, out);
    return out;
  }

  private static void collectLinks(Object node, List<Cid> out) {
    if (node instanceof Cid cid) {
      out.add(cid);
    } else if (node instanceof List<?> list) {
      for (Object item : list) {
        collectLinks(item, out);
      }
    } else if (node instanceof Map<?, ?> map) {
      for (Object item : map.values()) {
        collectLinks(item, out);
      }
    }
  }

  private static void write(ByteArrayOutputStream out, Object value, int depth) {
    if (depth > DagCborReader.MAX_DEPTH) {
      throw new DagCborException("value nests deeper than " + DagCborReader.MAX_DEPTH);
    }
    if (value == null) {
      out.write(0xf6);
    } else if (value instanceof Boolean) {
      out.write((Boolean) value ? 0xf5 : 0xf4);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      long n = ((Number) value).longValue();
      if (n >= 0) {
        Cbor.head(out, Cbor.UNSIGNED, n);
      } else {
        Cbor.head(out, Cbor.NEGATIVE, -1 - n);
      }
    } else if (value instanceof BigInteger) {
      writeBig(out, (BigInteger) value);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        throw new DagCborException("DAG-CBOR cannot hold " + d);
      }
      out.write(0xfb);
      long bits = Double.doubleToRawLongBits(d);
      for (int shift = 56; shift >= 0; shift -= 8) {
        out.write((int) (bits >>> shift));
      }
    } else if (value instanceof String) {
      Cbor.text(out, (String) value);
    } else if (value instanceof byte[]) {
      byte[] b = (byte[]) value;
      Cbor.head(out, Cbor.BYTES, b.length);
      out.writeBytes(b);
    } else if (value instanceof Cid) {
      Cbor.link(out, (Cid) value);
    } else if (value instanceof List) {
      List<?> list = (List<?>) value;
      Cbor.head(out, Cbor.ARRAY, list.size());
      for (Object item : list) {
        write(out, item, depth + 1);
      }
    } else if (value instanceof Map) {
      writeMap(out, (Map<?, ?>) value, depth);
    } else {
      throw new DagCborException("DAG-CBOR cannot hold a " + value.getClass().getName());
    }
  }

  private static void writeBig(ByteArrayOutputStream out, BigInteger n) {
    if (n.signum() >= 0 && n.compareTo(TWO_64) < 0) {
      Cbor.head(out, Cbor.UNSIGNED, n.longValue());
    } else if (n.signum() < 0 && n.negate().compareTo(TWO_64) <= 0) {
      Cbor.head(out, Cbor.NEGATIVE, n.negate().subtract(BigInteger.ONE).longValue());
    } else {
      throw new DagCborException("integer " + n + " is outside the 64-bit range of DAG-CBOR");
    }
  }

  private static void writeMap(ByteArrayOutputStream out, Map<?, ?> map, int depth) {
    TreeMap<byte[], Object> sorted = new TreeMap<>(DagCbor::compareKeys);
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String)) {
        throw new DagCborException("DAG-CBOR map keys must be strings, not " + e.getKey());
      }
      sorted.put(Cbor.utf8((String) e.getKey()), e.getValue());
    }
    Cbor.head(out, Cbor.MAP, sorted.size());
    for (Map.Entry<byte[], Object> e : sorted.entrySet()) {
      Cbor.head(out, Cbor.TEXT, e.getKey().length);
      out.writeBytes(e.getKey());
      write(out, e.getValue(), depth + 1);
    }
  }

  /** Canonical key order: shorter encoding first, then bytewise (RFC 7049 §3.9). */
  static int compareKeys(byte[] a, byte[] b) {
    return compareKeys(a, 0, a.length, b, 0, b.length);
  }

  /** {@link #compareKeys(byte[], byte[])} of {@code a[aFrom, aTo)} and {@code b[bFrom, bTo)}. */
  static int compareKeys(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
    return aTo - aFrom != bTo - bFrom ? Integer.compare(aTo - aFrom, bTo - bFrom)
        : Arrays.compareUnsigned(a, aFrom, aTo, b, bFrom, bTo);
  }
}
