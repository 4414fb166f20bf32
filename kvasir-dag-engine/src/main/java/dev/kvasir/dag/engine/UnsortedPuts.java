package dev.kvasir.dag.engine;

import dev.kvasir.dag.cid.Cid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Puts that arrive in no key order, packed into pages until they are read back once, sorted:
 * what a large transaction onto the empty pail holds of a pail whose keys do not come in order,
 * such as the expiry index of a restore (docs/dag-engine.md §2, "Large transactions"). A put
 * takes its key's characters, its value's CID and 13 bytes; in a map it took about 200 bytes,
 * and as many again when the commit applied the map.
 *
 * <p>Keys are kept one byte a character, so only keys whose characters are all below 256
 * ({@link #holds}) are taken: their bytes then order as the strings do. Pail keys of the engine
 * are hex behind an ASCII prefix.
 */
final class UnsortedPuts {
  private final PackedPages pages = new PackedPages();
  /** Per put, in the order added: where in {@link #pages} it starts. */
  private long[] positions = new long[1024];
  private int count;

  /** Whether {@code key} can be kept: every character below 256. */
  static boolean holds(String key) {
    for (int i = 0; i < key.length(); i++) {
      if (key.charAt(i) > 0xff) {
        return false;
      }
    }
    return true;
  }

  int size() {
    return count;
  }

  /** Adds a put; a later put of the same key wins. The key must be one {@link #holds} takes. */
  void add(String key, Cid value) {
    byte[] cid = value.bytes();
    long position = pages.reserve(4 + key.length() + 1 + cid.length);
    if (count == positions.length) {
      positions = Arrays.copyOf(positions, 2 * count);
    }
    positions[count++] = position;
    byte[] page = pages.page(position);
    int at = PackedPages.offset(position);
    PackedPages.putInt(page, at, key.length());
    at += 4;
    for (int i = 0; i < key.length(); i++) {
      page[at++] = (byte) key.charAt(i); // one byte a character: holds() checked them
    }
    page[at++] = (byte) cid.length; // a CID has at most 151 bytes
    System.arraycopy(cid, 0, page, at, cid.length);
  }

  /** Passes each key once, with the value it was put last, in ascending key order. */
  void forEachSorted(BiConsumer<String, Cid> sink) {
    int[] order = sortedByKey();
    for (int i = 0; i < count; i++) {
      // equal keys stay in the order they were put: only the last of them counts
      if (i + 1 < count && compareKeys(order[i], order[i + 1]) == 0) {
        continue;
      }
      byte[] page = page(order[i]);
      int at = offset(order[i]);
      int length = length(page, at);
      String key = new String(page, at + 4, length, StandardCharsets.ISO_8859_1);
      int cidAt = at + 4 + length;
      sink.accept(key, Cid.decode(Arrays.copyOfRange(page, cidAt + 1,
          cidAt + 1 + (page[cidAt] & 0xff))));
    }
  }

  /** The puts' numbers ordered by key, equal keys in the order put (a stable merge sort). */
  private int[] sortedByKey() {
    int[] sorted = new int[count];
    for (int i = 0; i < count; i++) {
      sorted[i] = i;
    }
    int[] merged = new int[count];
    for (int width = 1; width < count; width *= 2) {
      for (int low = 0; low < count; low += 2 * width) {
        int mid = Math.min(low + width, count);
        int high = Math.min(low + 2 * width, count);
        int i = low;
        int j = mid;
        int k = low;
        while (i < mid && j < high) {
          merged[k++] = compareKeys(sorted[i], sorted[j]) <= 0 ? sorted[i++] : sorted[j++];
        }
        System.arraycopy(sorted, i, merged, k, mid - i);
        System.arraycopy(sorted, j, merged, k + mid - i, high - j);
      }
      int[] swap = sorted;
      sorted = merged;
      merged = swap;
    }
    return sorted;
  }

  private int compareKeys(int a, int b) {
    byte[] pageA = page(a);
    byte[] pageB = page(b);
    int atA = offset(a) + 4;
    int atB = offset(b) + 4;
    return Arrays.compareUnsigned(pageA, atA, atA + length(pageA, atA - 4),
        pageB, atB, atB + length(pageB, atB - 4));
  }

  private byte[] page(int put) {
    return pages.page(positions[put]);
  }

  private int offset(int put) {
    return PackedPages.offset(positions[put]);
  }

  private static int length(byte[] page, int at) {
    return PackedPages.getInt(page, at);
  }
}
