package dev.kvasir.jdbc;

import dev.kvasir.base.KvDecodeException;
import dev.kvasir.spi.RawKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON text denokv keeps in queue rows (docs/queues.md): the backoff schedule as
 * {@code [100,1000]} and keysIfUndelivered as arrays of byte values, {@code [[2,100,0]]}. Shared
 * by the engines that store queue rows.
 */
public final class QueueJson {
  private QueueJson() {}

  public static String backoff(List<Integer> intervals) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < intervals.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(intervals.get(i));
    }
    return sb.append(']').toString();
  }

  public static String keys(List<RawKey> keys) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < keys.size(); i++) {
      sb.append(i == 0 ? "[" : ",[");
      byte[] b = keys.get(i).bytes();
      for (int j = 0; j < b.length; j++) {
        sb.append(j == 0 ? "" : ",").append(b[j] & 0xff);
      }
      sb.append(']');
    }
    return sb.append(']').toString();
  }

  public static List<Integer> parseBackoff(String json) {
    List<Integer> out = new ArrayList<>();
    for (long n : numbers(json, 1).get(0)) {
      out.add((int) n);
    }
    return out;
  }

  public static List<RawKey> parseKeys(String json) {
    List<RawKey> out = new ArrayList<>();
    for (long[] key : numbers(json, 2)) {
      byte[] b = new byte[key.length];
      for (int i = 0; i < key.length; i++) {
        b[i] = (byte) key[i];
      }
      out.add(RawKey.wrap(b));
    }
    return out;
  }

  /**
   * Arrays of non-negative integers: depth 1 is one array; depth 2 an array of arrays.
   */
  private static List<long[]> numbers(String json, int depth) {
    String s = json.replace(" ", "").replace("\n", "");
    if (s.length() < 2 || s.charAt(0) != '[' || s.charAt(s.length() - 1) != ']') {
      throw bad(json);
    }
    String body = s.substring(1, s.length() - 1);
    List<long[]> out = new ArrayList<>();
    if (depth == 1) {
      out.add(parseList(body, json));
      return out;
    }
    int i = 0;
    while (i < body.length()) {
      if (body.charAt(i) != '[') {
        throw bad(json);
      }
      int close = body.indexOf(']', i);
      if (close < 0) {
        throw bad(json);
      }
      out.add(parseList(body.substring(i + 1, close), json));
      i = close + 1;
      if (i < body.length()) {
        if (body.charAt(i) != ',') {
          throw bad(json);
        }
        i++;
      }
    }
    return out;
  }

  private static long[] parseList(String body, String json) {
    if (body.isEmpty()) {
      return new long[0];
    }
    String[] parts = body.split(",", -1);
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Long.parseLong(parts[i]);
      } catch (NumberFormatException e) {
        throw bad(json);
      }
    }
    return out;
  }

  private static KvDecodeException bad(String json) {
    return new KvDecodeException("malformed queue row JSON: " + json);
  }
}
