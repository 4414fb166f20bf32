package dev.kvasir.dag.engine;

import dev.kvasir.dag.cid.Cid;
import java.util.Arrays;

/**
 * Where each block of a log is, by CID, in about 80 bytes a block (docs/dag-engine.md §2): the
 * CIDs' bytes packed into pages (4 KiB, then each twice the last, up to 1 MiB), the locations in
 * arrays, and an open-addressing table of entry numbers. A {@code HashMap<Cid, Location>} took
 * about 170 bytes a block (the map's entry, the CID object and its array, the location object),
 * and a log holds a block for every entry and shard of every state, so a database of a million
 * entries took 180 MB of index alone, and a replication held two. Not thread-safe; entries are
 * removed only from the end.
 */
final class BlockIndex {
  /** Where a block's bytes are in the file. */
  record Location(long offset, int length) {}

  private static final int PAGE_BITS = 20;
  private static final int PAGE = 1 << PAGE_BITS;
  private static final int FIRST_PAGE_BITS = 12;

  /** Each CID as its length (one byte: a CID has at most 151) followed by its bytes. */
  private byte[][] pages = new byte[1][];
  private int pageCount;
  private int pageFill;
  /** Per entry, in the order added: where its CID starts, its hash, its block's location. */
  private long[] cidAt = new long[16];
  private int[] hashes = new int[16];
  private long[] offsets = new long[16];
  private int[] lengths = new int[16];
  private int size;
  /** Entry number + 1 at the slot its hash leads to (or the next free one); 0 is empty. */
  private int[] slots = new int[32];

  /** How many blocks it holds; {@link #truncate} takes such a count. */
  int size() {
    return size;
  }

  /**
   * Forgets the entries added after the first {@code count}: the blocks of a transaction that
   * did not commit, or of a commit whose marker a crash kept from the file.
   */
  void truncate(int count) {
    if (count >= size) {
      return;
    }
    long from = cidAt[count]; // the pages from there on held only the forgotten CIDs
    int page = (int) (from >>> PAGE_BITS);
    Arrays.fill(pages, page + 1, pageCount, null);
    pageCount = page + 1;
    pageFill = (int) (from & (PAGE - 1));
    size = count;
    Arrays.fill(slots, 0);
    for (int e = 0; e < size; e++) {
      slots[freeSlot(hashes[e])] = e + 1;
    }
  }

  /** Where the block {@code cid} is, or null if this index has no such block. */
  Location get(Cid cid) {
    int e = find(cid.bytes(), cid.hashCode());
    return e < 0 ? null : new Location(offsets[e], lengths[e]);
  }

  boolean contains(Cid cid) {
    return find(cid.bytes(), cid.hashCode()) >= 0;
  }

  /** Adds the block {@code cid} at {@code at}, unless the index has it already. */
  void put(Cid cid, Location at) {
    byte[] bytes = cid.bytes();
    int hash = cid.hashCode();
    if (find(bytes, hash) >= 0) {
      return;
    }
    if (size == cidAt.length) {
      int grown = size * 2;
      cidAt = Arrays.copyOf(cidAt, grown);
      hashes = Arrays.copyOf(hashes, grown);
      offsets = Arrays.copyOf(offsets, grown);
      lengths = Arrays.copyOf(lengths, grown);
    }
    cidAt[size] = store(bytes);
    hashes[size] = hash;
    offsets[size] = at.offset();
    lengths[size] = at.length();
    size++;
    if (size * 2 > slots.length) {
      slots = new int[slots.length * 2];
      for (int e = 0; e < size; e++) {
        slots[freeSlot(hashes[e])] = e + 1;
      }
    } else {
      slots[freeSlot(hash)] = size;
    }
  }

  /** Copies a CID into the pages; returns where it starts. */
  private long store(byte[] cid) {
    int length = cid.length;
    if (length > 255) {
      throw new IllegalArgumentException("a CID of " + length + " bytes"); // at most 151
    }
    if (pageCount == 0 || pageFill + 1 + length > pages[pageCount - 1].length) {
      if (pageCount == pages.length) {
        pages = Arrays.copyOf(pages, pageCount * 2);
      }
      pages[pageCount] = new byte[1 << Math.min(PAGE_BITS, FIRST_PAGE_BITS + pageCount)];
      pageCount++;
      pageFill = 0;
    }
    byte[] page = pages[pageCount - 1];
    long at = ((long) (pageCount - 1) << PAGE_BITS) | pageFill;
    page[pageFill] = (byte) length;
    System.arraycopy(cid, 0, page, pageFill + 1, length);
    pageFill += 1 + length;
    return at;
  }

  /** The entry number of the CID whose bytes are {@code cid}, or −1. */
  private int find(byte[] cid, int hash) {
    int mask = slots.length - 1;
    for (int i = spread(hash) & mask; slots[i] != 0; i = (i + 1) & mask) {
      int e = slots[i] - 1;
      if (hashes[e] == hash) {
        byte[] page = pages[(int) (cidAt[e] >>> PAGE_BITS)];
        int at = (int) (cidAt[e] & (PAGE - 1));
        if ((page[at] & 0xff) == cid.length
            && Arrays.equals(page, at + 1, at + 1 + cid.length, cid, 0, cid.length)) {
          return e;
        }
      }
    }
    return -1;
  }

  private int freeSlot(int hash) {
    int mask = slots.length - 1;
    int i = spread(hash) & mask;
    while (slots[i] != 0) {
      i = (i + 1) & mask;
    }
    return i;
  }

  /**
   * Mixes the CID's hash (Arrays.hashCode of its bytes, whose low bits follow the last bytes
   * only weakly) so that linear probing spreads it.
   */
  private static int spread(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
