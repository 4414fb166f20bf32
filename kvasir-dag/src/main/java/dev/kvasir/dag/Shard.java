package dev.kvasir.dag;

import dev.kvasir.dag.cbor.Cbor;
import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.CorruptBlockException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A shard: a DAG-CBOR array of entries sorted by key in JavaScript string order (UTF-16 code
 * units, which is {@link String#compareTo}; {@code docs/pail.md} §2). Immutable.
 */
public final class Shard {
  static final Shard EMPTY = new Shard(List.of());

  private final List<ShardEntry> entries;
  private int size = -1;

  private Shard(List<ShardEntry> entries) {
    this.entries = entries;
  }

  /** Takes ownership of a list that is already sorted and free of duplicate keys. */
  static Shard of(List<ShardEntry> sorted) {
    return sorted.isEmpty() ? EMPTY : new Shard(Collections.unmodifiableList(sorted));
  }

  public List<ShardEntry> entries() {
    return entries;
  }

  /** The entry with exactly this key, or null. */
  public ShardEntry get(String key) {
    int i = indexOf(key);
    return i >= 0 ? entries.get(i) : null;
  }

  /** Binary search: the index of {@code key}, or {@code -(insertion point) - 1}. */
  int indexOf(String key) {
    return search(entries, key);
  }

  static int search(List<ShardEntry> entries, String key) {
    int lo = 0;
    int hi = entries.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = entries.get(mid).key().compareTo(key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** The length of the DAG-CBOR encoding, without encoding the whole shard. */
  public int encodedSize() {
    int s = size;
    if (s < 0) {
      s = sizeOf(entries);
      size = s;
    }
    return s;
  }

  /** The encoded length of a shard holding {@code entries}. */
  static int sizeOf(List<ShardEntry> entries) {
    int s = Cbor.headSize(entries.size());
    for (ShardEntry e : entries) {
      s += e.encoded().length;
    }
    return s;
  }

  byte[] encode() {
    byte[] out = new byte[encodedSize()];
    int n = entries.size();
    int pos;
    if (n < 24) {
      out[0] = (byte) (0x80 | n);
      pos = 1;
    } else {
      ByteArrayOutputStream head = new ByteArrayOutputStream(5);
      Cbor.head(head, Cbor.ARRAY, n);
      byte[] h = head.toByteArray();
      System.arraycopy(h, 0, out, 0, h.length);
      pos = h.length;
    }
    for (ShardEntry e : entries) {
      byte[] b = e.encoded();
      System.arraycopy(b, 0, out, pos, b.length);
      pos += b.length;
    }
    return out;
  }

  Block toBlock() {
    return Block.of(Cid.DAG_CBOR, encode());
  }

  /**
   * Decodes and checks a shard block: an array of {@code [string, CID | [CID] | [CID, CID]]},
   * keys strictly ascending, shard links DAG-CBOR, and no sibling key starting with a link's
   * key (traversal relies on it).
   *
   * @throws CorruptBlockException naming the block for anything else
   */
  static Shard decode(Block block) {
    Object value;
    try {
      value = DagCbor.decode(block.bytes());
    } catch (IllegalArgumentException | DagException e) {
      throw new CorruptBlockException(block.cid(), e.getMessage());
    }
    if (!(value instanceof List)) {
      throw notShard(block, "expected an array of entries");
    }
    List<?> items = (List<?>) value;
    List<ShardEntry> entries = new ArrayList<>(items.size());
    ShardEntry previous = null;
    for (int i = 0; i < items.size(); i++) {
      ShardEntry entry = entry(block, i, items.get(i));
      if (previous != null) {
        if (previous.key().compareTo(entry.key()) >= 0) {
          throw notShard(block, "entry " + i + " (\"" + entry.key()
              + "\") is not in ascending key order");
        }
        if (previous.isLink() && entry.key().startsWith(previous.key())) {
          throw notShard(block, "entry " + i + " (\"" + entry.key()
              + "\") starts with the key of the shard link before it");
        }
      }
      entries.add(entry);
      previous = entry;
    }
    return of(entries);
  }

  private static ShardEntry entry(Block block, int index, Object item) {
    if (!(item instanceof List) || ((List<?>) item).size() != 2
        || !(((List<?>) item).get(0) instanceof String)) {
      throw notShard(block, "entry " + index + " is not a [key, value] pair");
    }
    String key = (String) ((List<?>) item).get(0);
    Object value = ((List<?>) item).get(1);
    if (value instanceof Cid) {
      return ShardEntry.data(key, (Cid) value);
    }
    if (value instanceof List) {
      List<?> link = (List<?>) value;
      if ((link.size() == 1 || link.size() == 2) && link.get(0) instanceof Cid
          && ((Cid) link.get(0)).codec() == Cid.DAG_CBOR
          && (link.size() == 1 || link.get(1) instanceof Cid)) {
        return ShardEntry.link(key, (Cid) link.get(0), link.size() == 2 ? (Cid) link.get(1)
            : null);
      }
    }
    throw notShard(block, "the value of entry " + index + " (\"" + key
        + "\") is neither a CID nor [shard link] nor [shard link, CID]");
  }

  private static CorruptBlockException notShard(Block block, String why) {
    return new CorruptBlockException(block.cid(), "not a pail shard: " + why);
  }

  @Override
  public String toString() {
    return entries.toString();
  }
}
