package dev.kvasir.dag;

import dev.kvasir.dag.cbor.Cbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * Builds a {@link CanonicalPail} from entries given in ascending key order, holding only the
 * path to the last key instead of every entry (docs/dag-keyspace.md §3, "Building from sorted
 * entries"). The root equals what {@link CanonicalPail#apply} gives for the same entries on an
 * empty pail.
 *
 * <p>The canonical shape is a trie over code points: below a shard, the entries sharing their
 * first code point share a link keyed by their longest common prefix. With sorted keys, every
 * group is a run, so a group is complete once a key outside it arrives. The builder keeps the
 * open groups on the path to the last key as a stack; a closed group whose entries may still
 * fit its parent's flat shard keeps them (at most one shard's worth); any other is encoded and
 * stored at once, since no larger group can hold it flat either. Not thread-safe.
 */
public final class CanonicalBuilder {
  private final Blockstore store;
  private final int maxShardSize;
  /** The open groups on the path to {@link #lastKey}, the root (depth 0) at the bottom. */
  private final Deque<Group> open = new ArrayDeque<>();
  private String lastKey;
  private Cid lastValue;
  private long count;
  private boolean finished;

  CanonicalBuilder(Blockstore store, int maxShardSize) {
    this.store = store;
    this.maxShardSize = maxShardSize;
    open.push(new Group(0, ""));
  }

  /**
   * Adds an entry; its key must sort after every key added before.
   *
   * @throws IllegalArgumentException for an empty or malformed key, or one out of order
   */
  public void add(String key, Cid value) {
    if (finished) {
      throw new IllegalStateException("the build is finished");
    }
    Pail.checkKey(key);
    Objects.requireNonNull(value, "value of " + key);
    if (key.isEmpty()) {
      throw new IllegalArgumentException("a pail key must not be empty");
    }
    if (lastKey != null) {
      if (key.compareTo(lastKey) <= 0) {
        throw new IllegalArgumentException("keys must be added in ascending order: \"" + key
            + "\" after \"" + lastKey + "\"");
      }
      close(CanonicalPail.commonPrefixEnd(lastKey, key, 0, lastKey.length()), key);
    }
    lastKey = key;
    lastValue = value;
    count++;
  }

  /** The number of entries added. */
  public long count() {
    return count;
  }

  /** The last key added, or null before the first. */
  public String lastKey() {
    return lastKey;
  }

  /** The value of {@link #lastKey()}. */
  public Cid lastValue() {
    return lastValue;
  }

  /** Stores the shards not yet stored and returns the root; nothing can be added after. */
  public Cid finish() {
    if (finished) {
      throw new IllegalStateException("the build is finished");
    }
    finished = true;
    if (lastKey != null) {
      close(0, null);
    }
    Group root = open.pop();
    List<Leaf> flat = flatEntries(root.members, 0);
    if (flat != null) {
      return put(flat, 0);
    }
    return put(grouped(root));
  }

  /**
   * Closes the groups deeper than {@code depth}, the length of the prefix that the last key
   * shares with {@code next} (null at the end): the last key becomes a member of the deepest,
   * and each closed group one of the group below it. If {@code next} then shares more with the
   * last key than the open group's prefix, opens a group for what the two share.
   */
  private void close(int depth, String next) {
    Part closed = new Leaf(lastKey, lastValue);
    while (open.peek().depth > depth) {
      Group group = open.pop();
      group.add(closed);
      closed = group.close();
    }
    if (next != null && open.peek().depth < depth) {
      Group group = new Group(depth, next.substring(0, depth));
      group.add(closed);
      open.push(group);
    } else {
      open.peek().add(closed);
    }
  }

  /** A group or entry below a group, in key order. */
  private sealed interface Part permits Leaf, Small, Stored {}

  /** One entry, by its whole key. */
  private record Leaf(String key, Cid value) implements Part {}

  /**
   * A closed group whose entries fit one flat shard, so they may yet be flat in its parent's:
   * {@code below} are all but the one equal to the prefix, {@code exact}.
   */
  private record Small(String prefix, Cid exact, List<Leaf> below) implements Part {}

  /** A closed group too large to be flat in any shard: its canonical shard is stored. */
  private record Stored(String prefix, Cid link, Cid exact) implements Part {}

  /** The entries sharing a prefix of {@code depth} characters: the root, or a link. */
  private final class Group {
    final int depth;
    final String prefix;
    Cid exact;
    final List<Part> members = new ArrayList<>();

    Group(int depth, String prefix) {
      this.depth = depth;
      this.prefix = prefix;
    }

    /** Adds a member; an entry whose key is the prefix rides on the link instead. */
    void add(Part part) {
      if (part instanceof Leaf leaf && leaf.key().length() == depth) {
        exact = leaf.value();
      } else {
        members.add(part);
      }
    }

    Part close() {
      List<Leaf> flat = flatEntries(members, depth);
      return flat != null ? new Small(prefix, exact, flat)
          : new Stored(prefix, put(grouped(this)), exact);
    }
  }

  /**
   * The entries of {@code parts} if they fit one flat shard relative to {@code depth}, else
   * null; found at the first entry too many.
   */
  private List<Leaf> flatEntries(List<Part> parts, int depth) {
    List<Leaf> flat = new ArrayList<>();
    long entryBytes = 0;
    int counted = 0;
    for (Part part : parts) {
      if (part instanceof Leaf leaf) {
        flat.add(leaf);
      } else if (part instanceof Small small) {
        if (small.exact() != null) {
          flat.add(new Leaf(small.prefix(), small.exact()));
        }
        flat.addAll(small.below());
      } else {
        return null;
      }
      for (; counted < flat.size(); counted++) {
        Leaf leaf = flat.get(counted);
        entryBytes += entrySize(leaf.key(), depth, leaf.value());
        // The array's head grows with the count, as Shard.sizeOf counts it.
        if (Cbor.headSize(counted + 1) + entryBytes > maxShardSize) {
          return null;
        }
      }
    }
    return flat;
  }

  /** The shard entries of a group that is not flat: one per member. */
  private List<ShardEntry> grouped(Group group) {
    List<ShardEntry> entries = new ArrayList<>(group.members.size());
    for (Part part : group.members) {
      if (part instanceof Leaf leaf) {
        entries.add(ShardEntry.data(leaf.key().substring(group.depth), leaf.value()));
      } else if (part instanceof Small small) {
        Cid link = put(small.below(), small.prefix().length());
        entries.add(ShardEntry.link(small.prefix().substring(group.depth), link, small.exact()));
      } else {
        Stored stored = (Stored) part;
        entries.add(ShardEntry.link(stored.prefix().substring(group.depth), stored.link(),
            stored.exact()));
      }
    }
    return entries;
  }

  /** Stores the flat shard of {@code leaves}, keys relative to {@code depth}. */
  private Cid put(List<Leaf> leaves, int depth) {
    List<ShardEntry> entries = new ArrayList<>(leaves.size());
    for (Leaf leaf : leaves) {
      entries.add(ShardEntry.data(leaf.key().substring(depth), leaf.value()));
    }
    return put(entries);
  }

  private Cid put(List<ShardEntry> entries) {
    Block block = Shard.of(entries).toBlock();
    store.put(block);
    return block.cid();
  }

  /**
   * The DAG-CBOR size of the entry {@code [key from depth on, value]}, without encoding it: an
   * array head, the text and the link.
   */
  private static long entrySize(String key, int depth, Cid value) {
    int utf8 = 0;
    for (int i = depth; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x80) {
        utf8 += 1;
      } else if (c < 0x800) {
        utf8 += 2;
      } else if (Character.isHighSurrogate(c)) {
        utf8 += 4;
        i++; // its low surrogate: checked well-formed when added
      } else {
        utf8 += 3;
      }
    }
    return 1 + Cbor.headSize(utf8) + utf8 + Cbor.linkSize(value);
  }
}
