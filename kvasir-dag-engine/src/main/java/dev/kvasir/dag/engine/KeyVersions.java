package dev.kvasir.dag.engine;

import java.util.Arrays;

/**
 * Keys with a version each, added in ascending key order and read back in that order: what a
 * {@link Backup} remembers of the last state it copied (docs/backup.md §6). Each key is packed
 * into pages as its length, its bytes and its version, about 24 bytes for a key of 12, where an
 * array per key and a list of them took about 60.
 */
final class KeyVersions {
  private final PackedPages pages = new PackedPages();
  private long count;

  long count() {
    return count;
  }

  /** Adds a key above every key added before it. */
  void add(byte[] key, long version) {
    long position = pages.reserve(4 + key.length + 8);
    byte[] page = pages.page(position);
    int at = PackedPages.offset(position);
    PackedPages.putInt(page, at, key.length);
    System.arraycopy(key, 0, page, at + 4, key.length);
    putLong(page, at + 4 + key.length, version);
    count++;
  }

  Cursor cursor() {
    return new Cursor();
  }

  /** Reads the keys in order: the methods but {@link #advance} look at the current one. */
  final class Cursor {
    private long position;

    boolean atEnd() {
      return pages.atEnd(position);
    }

    /** How the key at the cursor orders against {@code key}, bytes unsigned. */
    int compareTo(byte[] key) {
      byte[] p = pages.page(position);
      int at = PackedPages.offset(position) + 4;
      return Arrays.compareUnsigned(p, at, at + PackedPages.getInt(p, at - 4), key, 0,
          key.length);
    }

    byte[] key() {
      byte[] p = pages.page(position);
      int at = PackedPages.offset(position);
      return Arrays.copyOfRange(p, at + 4, at + 4 + PackedPages.getInt(p, at));
    }

    long version() {
      byte[] p = pages.page(position);
      int at = PackedPages.offset(position);
      return getLong(p, at + 4 + PackedPages.getInt(p, at));
    }

    void advance() {
      byte[] p = pages.page(position);
      position = pages.after(position, 4 + PackedPages.getInt(p, PackedPages.offset(position))
          + 8);
    }
  }

  private static void putLong(byte[] b, int at, long v) {
    PackedPages.putInt(b, at, (int) (v >>> 32));
    PackedPages.putInt(b, at + 4, (int) v);
  }

  private static long getLong(byte[] b, int at) {
    return (long) PackedPages.getInt(b, at) << 32 | (PackedPages.getInt(b, at + 4) & 0xffffffffL);
  }
}
