package dev.kvasir.dag.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keys with a version each, added in ascending key order and read back in that order: what a
 * {@link Backup} remembers of the last state it copied (docs/backup.md §6). Each key is packed
 * into pages as its length, its bytes and its version, about 24 bytes for a key of 12, where an
 * array per key and a list of them took about 60.
 */
final class KeyVersions {
  private static final int FIRST_PAGE = 4 << 10;
  private static final int LAST_PAGE = 1 << 20;

  private final List<byte[]> pages = new ArrayList<>();
  private int fill; // bytes used in the last page
  private long count;

  long count() {
    return count;
  }

  /** Adds a key above every key added before it. */
  void add(byte[] key, long version) {
    int size = 4 + key.length + 8;
    if (pages.isEmpty() || fill + size > last().length) {
      int next = FIRST_PAGE;
      if (!pages.isEmpty()) {
        next = Math.min(LAST_PAGE, 2 * last().length);
        pages.set(pages.size() - 1, Arrays.copyOf(last(), fill)); // a full page ends its keys
      }
      pages.add(new byte[Math.max(next, size)]);
      fill = 0;
    }
    byte[] page = last();
    putInt(page, fill, key.length);
    System.arraycopy(key, 0, page, fill + 4, key.length);
    putLong(page, fill + 4 + key.length, version);
    fill += size;
    count++;
  }

  private byte[] last() {
    return pages.get(pages.size() - 1);
  }

  Cursor cursor() {
    return new Cursor();
  }

  /** Reads the keys in order: the methods but {@link #advance} look at the current one. */
  final class Cursor {
    private int page;
    private int at;

    boolean atEnd() {
      return page == pages.size() || page == pages.size() - 1 && at == fill;
    }

    /** How the key at the cursor orders against {@code key}, bytes unsigned. */
    int compareTo(byte[] key) {
      byte[] p = pages.get(page);
      int length = getInt(p, at);
      return Arrays.compareUnsigned(p, at + 4, at + 4 + length, key, 0, key.length);
    }

    byte[] key() {
      byte[] p = pages.get(page);
      return Arrays.copyOfRange(p, at + 4, at + 4 + getInt(p, at));
    }

    long version() {
      byte[] p = pages.get(page);
      return getLong(p, at + 4 + getInt(p, at));
    }

    void advance() {
      byte[] p = pages.get(page);
      at += 4 + getInt(p, at) + 8;
      if (at == p.length && page < pages.size() - 1) {
        page++;
        at = 0;
      }
    }
  }

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  private static int getInt(byte[] b, int at) {
    return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8
        | (b[at + 3] & 0xff);
  }

  private static void putLong(byte[] b, int at, long v) {
    putInt(b, at, (int) (v >>> 32));
    putInt(b, at + 4, (int) v);
  }

  private static long getLong(byte[] b, int at) {
    return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xffffffffL);
  }
}
