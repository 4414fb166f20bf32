package dev.kvasir.dag;

import dev.kvasir.dag.cbor.Cbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A key/value map stored as a DAG of DAG-CBOR shards ({@code docs/pail.md}), with the
 * block format of {@code @alanshaw/pail} 0.3.4: the same operations give the same root CIDs.
 *
 * <pre>{@code
 * Pail pail = Pail.open(new MemoryBlockstore());
 * Cid root = pail.empty();
 * root = pail.put(root, "fruit/apple", valueCid).root();
 * Cid v = pail.get(root, "fruit/apple");                  // valueCid
 * pail.entries(root, EntriesQuery.prefix("fruit/")).forEach(System.out::println);
 * }</pre>
 *
 * <p>Roots are immutable values: every update returns a new root and leaves the old one
 * readable. New blocks are written to the blockstore; replaced ones are left there (see
 * {@link PailUpdate}). Thread-safe. Where pail 0.3.4 departs from the spec text
 * ({@code docs/pail.md} §4: E2, E3, E4, E6) this class follows the spec.
 *
 * <p>Keys are any well-formed Unicode strings, ordered as JavaScript orders them (UTF-16 code
 * units). Blocks that are missing raise {@link dev.kvasir.dag.store.MissingBlockException};
 * malformed ones {@link dev.kvasir.dag.store.CorruptBlockException}; both name the CID.
 */
public final class Pail {
  /** The root of an empty pail: the CID of the empty shard, the same in every store. */
  public static final Cid EMPTY_ROOT = Shard.EMPTY.toBlock().cid();

  private final ShardLoader loader;
  private final PailOptions options;

  /** A pail reading through {@code loader}, sharing its cache with whoever else uses it. */
  Pail(ShardLoader loader, PailOptions options) {
    this.loader = loader;
    this.options = options;
  }

  public static Pail open(Blockstore store) {
    return open(store, PailOptions.defaults());
  }

  public static Pail open(Blockstore store, PailOptions options) {
    return new Pail(new ShardLoader(Objects.requireNonNull(store, "store")),
        Objects.requireNonNull(options, "options"));
  }

  /** The same pail (store and cache) with other limits. */
  public Pail withOptions(PailOptions newOptions) {
    return new Pail(loader, Objects.requireNonNull(newOptions, "options"));
  }

  public PailOptions options() {
    return options;
  }

  public Blockstore store() {
    return loader.store();
  }

  /** Stores the empty shard and returns its CID (the root of an empty pail). */
  public Cid empty() {
    ShardLoader.Loaded empty = loader.encode(Shard.EMPTY);
    store().put(empty.block());
    return empty.block().cid();
  }

  /** The shard stored at {@code cid}, decoded and checked. */
  public Shard shard(Cid cid) {
    return loader.load(cid).shard();
  }

  /** The value under {@code key}, or null if there is none. */
  public Cid get(Cid root, String key) {
    checkKey(key);
    List<Step> path = traverse(root, key);
    Step target = path.get(path.size() - 1);
    ShardEntry entry = target.shard().get(key.substring(target.prefix().length()));
    return entry == null ? null : entry.data();
  }

  /**
   * Puts {@code value} under {@code key}.
   *
   * @throws ShardLimitException if the target shard cannot be split below the limit
   */
  public PailUpdate put(Cid root, String key, Cid value) {
    checkKey(key);
    Objects.requireNonNull(value, "value");
    List<Step> path = traverse(root, key);
    Step target = path.get(path.size() - 1);
    String shardKey = key.substring(target.prefix().length());
    List<ShardLoader.Loaded> created = new ArrayList<>();
    ShardEntry entry = chunked(shardKey, value, created);
    List<ShardEntry> entries = new ArrayList<>(target.shard().entries());
    int at = putEntry(entries, entry);
    Shard updated = new Splitter(options, loader, created).fit(entries, at);
    ShardLoader.Loaded encoded = loader.encode(updated);
    if (encoded.block().cid().equals(target.cid())) {
      return new PailUpdate(root, List.of(), List.of());
    }
    created.add(encoded);
    return commit(path, path.size() - 1, encoded, created);
  }

  /** Removes {@code key}; a key that is absent (or only a shard link) changes nothing. */
  public PailUpdate del(Cid root, String key) {
    checkKey(key);
    List<Step> path = traverse(root, key);
    int level = path.size() - 1;
    Shard target = path.get(level).shard();
    int i = target.indexOf(key.substring(path.get(level).prefix().length()));
    if (i < 0 || target.entries().get(i).data() == null) {
      return new PailUpdate(root, List.of(), List.of());
    }
    List<ShardEntry> entries = new ArrayList<>(target.entries());
    ShardEntry entry = entries.get(i);
    if (entry.isLink()) {
      entries.set(i, ShardEntry.link(entry.key(), entry.link(), null));
    } else {
      entries.remove(i);
      // An emptied shard disappears from its parent. Spec (unlike pail, E2): a parent entry
      // that also held data keeps that data as a plain value.
      while (entries.isEmpty() && level > 0) {
        String keyInParent = path.get(level).keyInParent();
        level--;
        entries = new ArrayList<>(path.get(level).shard().entries());
        int j = Shard.search(entries, keyInParent);
        Cid data = entries.get(j).data();
        if (data != null) {
          entries.set(j, ShardEntry.data(keyInParent, data));
        } else {
          entries.remove(j);
        }
      }
    }
    List<ShardLoader.Loaded> created = new ArrayList<>();
    ShardLoader.Loaded encoded = loader.encode(Shard.of(entries));
    created.add(encoded);
    return commit(path, level, encoded, created);
  }

  /** The entries selected by {@code query}, ascending by key, loading shards lazily. */
  public Stream<PailEntry> entries(Cid root, EntriesQuery query) {
    Iterator<PailEntry> it = new EntryWalker(loader, root, query);
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it,
        Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.DISTINCT), false);
  }

  public Stream<PailEntry> entries(Cid root) {
    return entries(root, EntriesQuery.all());
  }

  /** The keys and shard blocks that differ from root {@code a} to root {@code b}. */
  public PailDiff diff(Cid a, Cid b) {
    return Differ.diff(loader, a, b);
  }

  /**
   * Passes the keys that differ from root {@code a} to root {@code b} to {@code sink},
   * ascending, as the walk finds them, until it returns false. Unlike {@link #diff} it holds
   * neither the keys nor the shards it visited.
   *
   * @return false if {@code sink} stopped the walk
   */
  public boolean diffKeys(Cid a, Cid b, Predicate<KeyChange> sink) {
    return Differ.diffKeys(loader, a, b, Objects.requireNonNull(sink, "sink"));
  }

  /**
   * A batch of puts applied from {@code root}: its result is the root the same puts give one
   * by one, but intermediate shards are never written to the blockstore.
   */
  public Batch batch(Cid root) {
    return new Batch(this, root);
  }

  /** One shard on the path from the root to a key's target shard. */
  record Step(ShardLoader.Loaded loaded, String prefix, String keyInParent) {
    Cid cid() {
      return loaded.block().cid();
    }

    Shard shard() {
      return loaded.shard();
    }
  }

  /**
   * The path to the shard that holds or would hold {@code key} (spec "Shard Traversal", with
   * the prefix test the right way round, E13): descend into the link whose key starts
   * {@code key}; stop at an exact match or when none does.
   */
  List<Step> traverse(Cid root, String key) {
    List<Step> path = new ArrayList<>();
    ShardLoader.Loaded current = loader.load(root);
    path.add(new Step(current, "", null));
    String prefix = "";
    while (true) {
      Shard shard = current.shard();
      String rest = key.substring(prefix.length());
      int i = shard.indexOf(rest);
      if (i >= 0) {
        return path;
      }
      int before = -i - 2;
      if (before < 0) {
        return path;
      }
      ShardEntry candidate = shard.entries().get(before);
      if (!candidate.isLink() || !rest.startsWith(candidate.key())) {
        return path;
      }
      prefix += candidate.key();
      current = loader.load(candidate.link());
      path.add(new Step(current, prefix, candidate.key()));
    }
  }

  /**
   * The entry to insert for {@code shardKey}: plain data, or for a key longer than
   * {@code maxKeyLength} a link to a chain of single-entry shards (spec "Long Keys").
   */
  private ShardEntry chunked(String shardKey, Cid value, List<ShardLoader.Loaded> created) {
    if (shardKey.length() <= options.maxKeyLength()) {
      return ShardEntry.data(shardKey, value);
    }
    List<String> pieces = new ArrayList<>();
    int pos = 0;
    while (shardKey.length() - pos > options.maxKeyLength()) {
      int end = pos + options.maxKeyLength();
      // E4: never end a piece between the halves of a surrogate pair.
      if (Character.isHighSurrogate(shardKey.charAt(end - 1))
          && Character.isLowSurrogate(shardKey.charAt(end))) {
        end--;
      }
      pieces.add(shardKey.substring(pos, end));
      pos = end;
    }
    pieces.add(shardKey.substring(pos));
    ShardEntry entry = ShardEntry.data(pieces.get(pieces.size() - 1), value);
    for (int i = pieces.size() - 2; i >= 0; i--) {
      ShardLoader.Loaded chain = loader.encode(Shard.of(new ArrayList<>(List.of(entry))));
      created.add(chain);
      entry = ShardEntry.link(pieces.get(i), chain.block().cid(), null);
    }
    return entry;
  }

  /**
   * Inserts or merges {@code entry} into sorted {@code entries}; returns its index. Data put
   * on a link becomes {@code [link, data]}; a link put on data keeps the data (spec; pail
   * 0.3.4 drops it, E3).
   */
  private static int putEntry(List<ShardEntry> entries, ShardEntry entry) {
    int i = Shard.search(entries, entry.key());
    if (i < 0) {
      entries.add(-i - 1, entry);
      return -i - 1;
    }
    ShardEntry old = entries.get(i);
    if (!entry.isLink()) {
      entries.set(i, old.isLink() ? old.withData(entry.data()) : entry);
    } else {
      entries.set(i, ShardEntry.link(entry.key(), entry.link(), old.data()));
    }
    return i;
  }

  /**
   * Re-links every ancestor above {@code level} to the new shard (spec "Propagating
   * Changes"), writes all new blocks and reports the old path as removed.
   */
  private PailUpdate commit(List<Step> path, int level, ShardLoader.Loaded changed,
      List<ShardLoader.Loaded> created) {
    Cid child = changed.block().cid();
    for (int l = level - 1; l >= 0; l--) {
      List<ShardEntry> entries = new ArrayList<>(path.get(l).shard().entries());
      int j = Shard.search(entries, path.get(l + 1).keyInParent());
      entries.set(j, entries.get(j).withLink(child));
      ShardLoader.Loaded parent = loader.encode(Shard.of(entries));
      created.add(parent);
      child = parent.block().cid();
    }
    List<Block> additions = new ArrayList<>(created.size());
    for (ShardLoader.Loaded c : created) {
      store().put(c.block());
      additions.add(c.block());
    }
    List<Block> removals = new ArrayList<>(path.size());
    for (Step step : path) {
      removals.add(step.loaded().block());
    }
    return new PailUpdate(child, additions, removals);
  }

  static void checkKey(String key) {
    Objects.requireNonNull(key, "key");
    try {
      Cbor.utf8(key);
    } catch (IllegalArgumentException | DagException e) {
      throw new IllegalArgumentException("key \"" + key + "\" is not well-formed Unicode: "
          + e.getMessage());
    }
  }
}
