package dev.kvasir.dag.engine;

import java.util.Arrays;

/**
 * Where each block of a log is, in 21 to 43 bytes a block (docs/dag-engine.md §2): per block,
 * where its section's CID starts in the file, the length of CID and bytes together, and the
 * CID's hash, in arrays; and an open-addressing table of entry numbers by hash. It holds no CID:
 * the file has each one at the start of its section, so a lookup yields the entries whose hash
 * matches and the log reads their CIDs to tell which one it is. Holding the CIDs took about 80
 * bytes a block, and a {@code HashMap<Cid, Location>} before that about 170. Not thread-safe;
 * entries are removed only from the end.
 */
final class BlockIndex {
  private static final int[] NONE = new int[0];

  /** Per entry, in the order added. */
  private long[] offsets = new long[16];
  private int[] lengths = new int[16];
  private int[] hashes = new int[16];
  private int size;
  /** Entry number + 1 at the slot its hash leads to (or the next free one); 0 is empty. */
  private int[] slots = new int[32];

  /**
   * Replaces what it holds by the {@code offsets.length} entries of the arrays, which it takes
   * over: those of an index file (docs/dag-engine.md §2, {@link IndexFile}).
   */
  void replaceWith(long[] offsets, int[] lengths, int[] hashes) {
    if (offsets.length == 0) {
      truncate(0);
      return;
    }
    this.offsets = offsets;
    this.lengths = lengths;
    this.hashes = hashes;
    size = offsets.length;
    slots = new int[slotsFor(size)];
    for (int e = 0; e < size; e++) {
      slots[freeSlot(hashes[e])] = e + 1;
    }
  }

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
    size = count;
    Arrays.fill(slots, 0);
    for (int e = 0; e < size; e++) {
      slots[freeSlot(hashes[e])] = e + 1;
    }
  }

  /**
   * Adds a block whose CID has the hash {@code hash} and whose section, from its CID on, is the
   * {@code length} bytes at {@code offset}. The caller has made sure the index lacks it.
   */
  void add(int hash, long offset, int length) {
    if (size == offsets.length) {
      int grown = size * 2;
      offsets = Arrays.copyOf(offsets, grown);
      lengths = Arrays.copyOf(lengths, grown);
      hashes = Arrays.copyOf(hashes, grown);
    }
    offsets[size] = offset;
    lengths[size] = length;
    hashes[size] = hash;
    size++;
    if (slotsFor(size) > slots.length) {
      slots = new int[slots.length * 2];
      for (int e = 0; e < size; e++) {
        slots[freeSlot(hashes[e])] = e + 1;
      }
    } else {
      slots[freeSlot(hash)] = size;
    }
  }

  /**
   * The entries whose CID has the hash {@code hash}, in the order a lookup meets them: usually
   * none or one, more only when different CIDs share a hash.
   */
  int[] candidates(int hash) {
    int mask = slots.length - 1;
    int[] found = null;
    int count = 0;
    for (int i = spread(hash) & mask; slots[i] != 0; i = (i + 1) & mask) {
      int e = slots[i] - 1;
      if (hashes[e] == hash) {
        if (found == null) {
          found = new int[1];
        } else if (count == found.length) {
          found = Arrays.copyOf(found, count * 2);
        }
        found[count++] = e;
      }
    }
    return found == null ? NONE : count == found.length ? found : Arrays.copyOf(found, count);
  }

  /** Where entry {@code e}'s section starts, at its CID. */
  long offset(int e) {
    return offsets[e];
  }

  /** The bytes of entry {@code e}'s CID and block together. */
  int length(int e) {
    return lengths[e];
  }

  /**
   * The first {@code count} entries, which another thread may read while this one adds more:
   * entries are only added after them, and arrays that grow are copies, so the ones taken here
   * keep these entries as they are. The caller hands the prefix over under a lock, which makes
   * the entries visible to the thread it passes it to.
   */
  Prefix prefix(int count) {
    return new Prefix(offsets, lengths, hashes, count);
  }

  /** The first {@code count} entries of an index's arrays. */
  record Prefix(long[] offsets, int[] lengths, int[] hashes, int count) {}

  /**
   * The table's size for {@code entries}: a power of two, at most three quarters full. A lookup
   * then probes about two slots, which costs nothing beside the block's read; a table at most
   * half full took a third more memory, and on opening, memory touched for the first time costs
   * more than filling it (docs/dag-engine.md §2).
   */
  private static int slotsFor(int entries) {
    int capacity = 32;
    while (capacity < entries + entries / 3) {
      capacity <<= 1;
    }
    return capacity;
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
