package dev.kvasir.dag.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Bytes appended into pages that double from 4 KiB to 1 MiB, so that many small records take
 * their own bytes and little more, not an object each: what {@link KeyVersions} and
 * {@link UnsortedPuts} pack into. A record never spans two pages; one larger than a page gets a
 * page of its own. A page is cut to its records when the next one starts, so its length is
 * where its records end.
 */
final class PackedPages {
  private static final int FIRST_PAGE = 4 << 10;
  /** Bits of a {@link #reserve} position that hold the offset in its page. */
  private static final int OFFSET_BITS = 20;
  private static final int LAST_PAGE = 1 << OFFSET_BITS;

  private final List<byte[]> pages = new ArrayList<>();
  private int fill; // bytes used in the last page

  /**
   * Reserves {@code size} bytes at the end and returns where they start: the page's number above
   * {@link #OFFSET_BITS} bits, the offset in it below (read them with {@link #page(long)} and
   * {@link #offset}).
   */
  long reserve(int size) {
    if (pages.isEmpty() || fill + size > last().length) {
      int next = FIRST_PAGE;
      if (!pages.isEmpty()) {
        next = Math.min(LAST_PAGE, 2 * last().length);
        pages.set(pages.size() - 1, Arrays.copyOf(last(), fill));
      }
      pages.add(new byte[Math.max(next, size)]);
      fill = 0;
    }
    long position = (long) (pages.size() - 1) << OFFSET_BITS | fill;
    fill += size;
    return position;
  }

  private byte[] last() {
    return pages.get(pages.size() - 1);
  }

  /** The page a {@link #reserve} position is in. */
  byte[] page(long position) {
    return pages.get((int) (position >>> OFFSET_BITS));
  }

  static int offset(long position) {
    return (int) (position & (LAST_PAGE - 1));
  }

  /**
   * The position after the {@code size} bytes at {@code position}: the start of the next page
   * where they end their page (a record larger than a page fills a page of its own).
   */
  long after(long position, int size) {
    int n = (int) (position >>> OFFSET_BITS);
    return offset(position) + size == pages.get(n).length ? (long) (n + 1) << OFFSET_BITS
        : position + size;
  }

  /** Whether {@code position} is at the end of the bytes reserved so far. */
  boolean atEnd(long position) {
    int n = (int) (position >>> OFFSET_BITS);
    return n == pages.size() || n == pages.size() - 1 && offset(position) == fill;
  }

  static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  static int getInt(byte[] b, int at) {
    return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8
        | (b[at + 3] & 0xff);
  }
}
