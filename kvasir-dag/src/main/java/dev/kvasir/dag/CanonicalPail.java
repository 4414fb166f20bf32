package dev.kvasir.dag;

import dev.kvasir.dag.cbor.Cbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A pail whose shape depends only on what it holds, never on the order it was written in
 * ({@code docs/dag-keyspace.md} §3): the same entries give the same root CID, however they
 * arrived. Its blocks are ordinary pail shards, so {@link Pail#get}, {@link Pail#entries} and
 * {@link Pail#diff} read it.
 *
 * <p>The rule, for the entries below one shard (keys relative to it): if they fit in {@code
 * maxShardSize} bytes as one flat shard, they are that shard. Otherwise they are grouped by
 * their first code point; a group of one entry stays in the shard as it is, a larger group
 * becomes a link keyed by the group's longest common prefix to the shard (by the same rule) of
 * its entries with that prefix removed, the entry equal to the prefix, if any, riding on the
 * link as its data.
 *
 * <p>{@link #apply} changes a root by rebuilding only the shards on the changed keys' paths;
 * the result is always the root {@link #build} gives for the whole new content. Thread-safe.
 */
public final class CanonicalPail {
  /** The shard size used for Kvasir's keyspaces (docs/dag-keyspace.md §3). */
  public static final int DEFAULT_MAX_SHARD_SIZE = 4096;

  private final ShardLoader loader;
  private final int maxShardSize;

  private CanonicalPail(ShardLoader loader, int maxShardSize) {
    if (maxShardSize < 64) {
      throw new IllegalArgumentException("maxShardSize must be at least 64 bytes, got "
          + maxShardSize);
    }
    this.loader = loader;
    this.maxShardSize = maxShardSize;
  }

  public static CanonicalPail open(Blockstore store) {
    return open(store, DEFAULT_MAX_SHARD_SIZE);
  }

  public static CanonicalPail open(Blockstore store, int maxShardSize) {
    return new CanonicalPail(new ShardLoader(Objects.requireNonNull(store, "store")),
        maxShardSize);
  }

  /** With a shard cache of {@code cacheBytes} (0: none), for tests. */
  static CanonicalPail open(Blockstore store, int maxShardSize, long cacheBytes) {
    return new CanonicalPail(new ShardLoader(store, cacheBytes), maxShardSize);
  }

  public Blockstore store() {
    return loader.store();
  }

  /**
   * A reader of the same store (get, entries, diff), through the same shard cache: one cache per
   * store, so that a {@code dag:} database's reads and writes share one bound of the heap.
   */
  public Pail reader() {
    return new Pail(loader, PailOptions.defaults());
  }

  /** Stores the shards of the pail holding exactly {@code entries}; returns its root. */
  public Cid build(SortedMap<String, Cid> entries) {
    CanonicalBuilder builder = builder();
    entries.forEach(builder::add);
    return builder.finish();
  }

  /**
   * A build from entries added in ascending key order, which holds only the path to the last
   * key: for more entries than fit in memory.
   */
  public CanonicalBuilder builder() {
    return new CanonicalBuilder(loader.store(), maxShardSize);
  }

  /**
   * Applies {@code changes} to the pail at {@code root}: a key mapped to a CID is put, a key
   * mapped to {@code null} is removed (if present). Stores the new shards; returns the new root,
   * which is {@code root} itself when nothing changed.
   */
  public Cid apply(Cid root, NavigableMap<String, Cid> changes) {
    checkKeys(changes.keySet());
    if (changes.isEmpty()) {
      return root;
    }
    Work work = new Work();
    return work.save(work.apply(loader.load(root), changes, 0));
  }

  /** Every key must be well-formed Unicode (as for {@link Pail}) and not empty. */
  private static void checkKeys(Iterable<String> keys) {
    for (String key : keys) {
      Pail.checkKey(key);
      if (key.isEmpty()) {
        throw new IllegalArgumentException("a pail key must not be empty");
      }
    }
  }

  /**
   * One entry of a shard under construction: plain data, or a whole canonical sub-shard. Its
   * key is relative to the shard being built from an offset that {@link Work#build} is given:
   * the shards below share the items and move the offset, since copying every key at every
   * level held the keys of a large build several times over.
   */
  private sealed interface Item permits Loose, Sub {
    String key();
  }

  private record Loose(String key, Cid value) implements Item {}

  /**
   * Every key starting with {@code key}: the one equal to it is {@code data} (or absent), the
   * others live in the canonical shard {@code link}, and {@code key} is their longest common
   * prefix. Before {@link Work#build} sees a Sub, {@link Work#settle} has opened it into loose
   * items if its content may belong elsewhere.
   */
  private record Sub(String key, Cid link, Cid data) implements Item {}

  /**
   * One apply: remembers the shards it encoded so that only the used ones are saved. It keeps
   * their blocks, not the decoded shards, which take four to five times as much and of which a
   * large apply makes tens of thousands; one read again is decoded again, if the loader's
   * cache dropped it.
   */
  private final class Work {
    private final Map<Cid, Block> created = new HashMap<>();

    /**
     * The canonical shard for {@code items}, whose keys from {@code offset} on are relative to
     * it: sorted, not empty there, no key inside a Sub's.
     */
    ShardLoader.Loaded build(List<Item> items, int offset) {
      List<ShardEntry> flat = flatIfItFits(items, offset);
      if (flat != null) {
        return encode(flat);
      }
      List<ShardEntry> entries = new ArrayList<>();
      int i = 0;
      while (i < items.size()) {
        int j = groupEnd(items, i, offset);
        entries.add(group(items.subList(i, j), offset));
        i = j;
      }
      return encode(entries);
    }

    /**
     * {@code items} as one flat shard, or null if they include a Sub or exceed {@code
     * maxShardSize}: found at the first entry too many, not after encoding them all.
     */
    private List<ShardEntry> flatIfItFits(List<Item> items, int offset) {
      List<ShardEntry> flat = new ArrayList<>();
      int size = Cbor.headSize(items.size()); // as Shard.sizeOf counts
      for (Item item : items) {
        if (!(item instanceof Loose loose)) {
          return null;
        }
        ShardEntry entry = ShardEntry.data(loose.key().substring(offset), loose.value());
        size += entry.encoded().length;
        if (size > maxShardSize) {
          return null;
        }
        flat.add(entry);
      }
      return flat;
    }

    /** The entry for items sharing their code point at {@code offset}. */
    private ShardEntry group(List<Item> items, int offset) {
      if (items.size() == 1) {
        return entryOf(items.get(0), offset);
      }
      int end = items.get(0).key().length();
      for (Item item : items) {
        end = commonPrefixEnd(items.get(0).key(), item.key(), offset, end);
      }
      // A Sub's key is never the common prefix of two or more items: the others would lie
      // inside it. So only a Loose can equal it.
      Cid exact = null;
      List<Item> below = new ArrayList<>(items.size());
      for (Item item : items) {
        if (item.key().length() == end) {
          exact = ((Loose) item).value();
        } else {
          below.add(item);
        }
      }
      return ShardEntry.link(items.get(0).key().substring(offset, end),
          build(below, end).block().cid(), exact);
    }

    /**
     * The canonical shard for {@code shard}'s entries after {@code changes}, whose keys from
     * {@code offset} on are relative to it (before it, they all hold the shard's path). The
     * shards below see views of the same changes, with a longer offset: copying them, with
     * their keys cut, at every level held a large change several times over.
     */
    ShardLoader.Loaded apply(ShardLoader.Loaded shard, NavigableMap<String, Cid> changes,
        int offset) {
      List<Sub> subs = new ArrayList<>();
      TreeMap<String, Cid> loose = new TreeMap<>();
      for (ShardEntry e : shard.shard().entries()) {
        if (e.isLink()) {
          subs.add(new Sub(e.key(), e.link(), e.data()));
        } else {
          loose.put(e.key(), e.data());
        }
      }
      // No key lies inside a Sub's, so a change belongs to the Sub whose key it starts with, or
      // stands alone as loose data.
      List<Item> items = new ArrayList<>();
      for (Sub sub : subs) {
        NavigableMap<String, Cid> inside = within(changes, offset, sub.key());
        items.addAll(inside.isEmpty() ? List.of(sub) : open(sub, inside, offset));
      }
      for (Map.Entry<String, Cid> change : changes.entrySet()) {
        String key = change.getKey();
        if (subs.stream().anyMatch(sub -> key.startsWith(sub.key(), offset))) {
          continue;
        }
        if (change.getValue() == null) {
          loose.remove(key.substring(offset));
        } else {
          loose.put(key.substring(offset), change.getValue());
        }
      }
      loose.forEach((k, v) -> items.add(new Loose(k, v)));
      items.sort((a, b) -> a.key().compareTo(b.key()));
      return build(settle(items), 0);
    }

    /**
     * Opens the Subs whose content may now share a shard with other entries: a Sub over a flat
     * shard that shares its group with other items is regrouped with them, and when every Sub
     * is flat and together they may fit one shard, all are opened so that {@link #build} can
     * tell. What stays a Sub is then either alone in its group or over a shard with links.
     */
    private List<Item> settle(List<Item> items) {
      List<Item> out = new ArrayList<>(items.size());
      boolean deep = false;
      long lowerBound = 0; // of the flat shard: each sub-shard's entries, keys only longer
      int i = 0;
      while (i < items.size()) {
        int j = groupEnd(items, i, 0);
        for (Item item : items.subList(i, j)) {
          if (item instanceof Sub sub) {
            ShardLoader.Loaded child = load(sub.link());
            if (hasLinks(child)) {
              deep = true;
            } else if (j - i > 1) {
              expand(sub, child, out);
              continue;
            } else {
              lowerBound += child.block().size() - 9;
            }
          }
          out.add(item);
        }
        i = j;
      }
      if (deep || lowerBound > maxShardSize || out.stream().noneMatch(it -> it instanceof Sub)) {
        return out;
      }
      List<Item> opened = new ArrayList<>(out.size());
      for (Item item : out) {
        if (item instanceof Sub sub) {
          expand(sub, load(sub.link()), opened);
        } else {
          opened.add(item);
        }
      }
      return opened;
    }

    /** Adds a Sub over a flat shard as loose items, in key order. */
    private void expand(Sub sub, ShardLoader.Loaded child, List<Item> out) {
      if (sub.data() != null) {
        out.add(new Loose(sub.key(), sub.data()));
      }
      for (ShardEntry e : child.shard().entries()) {
        out.add(new Loose(sub.key() + e.key(), e.data()));
      }
    }

    /**
     * A Sub after {@code changes} (keys relative to this shard from {@code offset} on, all
     * starting with its key there), as the items that stand for it now: none, loose entries
     * when its content became a flat shard (so that {@link #build} regroups them), or a Sub,
     * moved to a longer key when its content gained a longer common prefix.
     */
    private List<Item> open(Sub sub, NavigableMap<String, Cid> changes, int offset) {
      String key = sub.key();
      int end = offset + key.length();
      Cid data = sub.data();
      NavigableMap<String, Cid> below = changes;
      String first = changes.firstKey(); // the key equal to the Sub's, if changed, sorts first
      if (first.length() == end) {
        data = changes.get(first);
        below = changes.tailMap(first, false);
      }
      ShardLoader.Loaded child = load(sub.link());
      if (!below.isEmpty()) {
        child = apply(child, below, end);
      }
      List<Item> out = new ArrayList<>();
      if (!hasLinks(child)) {
        expand(new Sub(key, child.block().cid(), data), child, out);
        return out;
      }
      List<ShardEntry> entries = child.shard().entries();
      if (data == null && entries.size() == 1) {
        ShardEntry only = entries.get(0); // a link: its key is now the common prefix
        out.add(new Sub(key + only.key(), only.link(), only.data()));
      } else {
        out.add(new Sub(key, child.block().cid(), data));
      }
      return out;
    }

    /**
     * A shard this work made, or else one of the store. The loader's cache alone does not do:
     * the shards made are stored only when the work ends, and a large apply made more than
     * the cache holds before {@link #settle} read the first again, which then failed as a
     * block missing from the store (docs/dag-keyspace.md §3).
     */
    ShardLoader.Loaded load(Cid cid) {
      Block made = created.get(cid);
      return made != null ? loader.load(made) : loader.load(cid);
    }

    ShardLoader.Loaded encode(List<ShardEntry> entries) {
      ShardLoader.Loaded loaded = loader.encode(Shard.of(entries));
      created.put(loaded.block().cid(), loaded.block());
      return loaded;
    }

    /** Writes the new shards reachable from {@code root}; returns its CID. */
    Cid save(ShardLoader.Loaded root) {
      Deque<Cid> todo = new ArrayDeque<>();
      todo.push(root.block().cid());
      List<Block> blocks = new ArrayList<>();
      while (!todo.isEmpty()) {
        Block block = created.remove(todo.pop());
        if (block == null) {
          continue; // already stored, or already saved
        }
        blocks.add(block);
        for (ShardEntry e : loader.load(block).shard().entries()) {
          if (e.isLink()) {
            todo.push(e.link());
          }
        }
      }
      for (int i = blocks.size() - 1; i >= 0; i--) { // children before their parents
        loader.store().put(blocks.get(i));
      }
      return root.block().cid();
    }
  }

  /** {@code item} as an entry of the shard its keys are relative to from {@code offset}. */
  private static ShardEntry entryOf(Item item, int offset) {
    if (item instanceof Sub sub) {
      return ShardEntry.link(sub.key().substring(offset), sub.link(), sub.data());
    }
    return ShardEntry.data(item.key().substring(offset), ((Loose) item).value());
  }

  /**
   * The end of the group of sorted {@code items} that starts at {@code i}: the same code point
   * at {@code offset}. A code point, not a UTF-16 unit: two keys starting with 😀 and 😁 share
   * their high surrogate, but a common prefix never splits a pair, so as one group their
   * prefix was empty and the build recursed without end (docs/dag-keyspace.md §3).
   */
  private static int groupEnd(List<Item> items, int i, int offset) {
    int first = items.get(i).key().codePointAt(offset);
    int j = i + 1;
    while (j < items.size() && items.get(j).key().codePointAt(offset) == first) {
      j++;
    }
    return j;
  }

  private static boolean hasLinks(ShardLoader.Loaded shard) {
    return shard.shard().entries().stream().anyMatch(ShardEntry::isLink);
  }

  /**
   * A view of the changes whose keys hold {@code key} at {@code offset} (all hold the same
   * {@code offset} characters before it).
   */
  private static NavigableMap<String, Cid> within(NavigableMap<String, Cid> changes, int offset,
      String key) {
    String prefix = changes.firstKey().substring(0, offset) + key;
    NavigableMap<String, Cid> tail = changes.tailMap(prefix, true);
    for (String k : tail.keySet()) {
      if (!k.startsWith(prefix)) {
        return tail.headMap(k, false);
      }
    }
    return tail;
  }

  /**
   * Where the common prefix of {@code a} and {@code b} from {@code from} ends, at most at {@code
   * max}: the index of the first character after it.
   */
  static int commonPrefixEnd(String a, String b, int from, int max) {
    int n = Math.min(max, b.length());
    int i = from;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    if (i > from && i < a.length() && Character.isHighSurrogate(a.charAt(i - 1))
        && Character.isLowSurrogate(a.charAt(i))) {
      i--; // never split a surrogate pair
    }
    return i;
  }
}
