package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Computes {@link Pail#diff} and {@link Pail#diffKeys}: walks both DAGs side by side and
 * descends only where links differ. Where the two shapes disagree (a link on one side, plain
 * keys on the other) both sides' keys under that prefix are listed and merged. Unlike pail's
 * {@code difference} (E10), every changed key is reported with its real before/after values.
 * The keys go to a sink as they are found, so that a diff of many keys need not hold them, and
 * the shard blocks visited are kept only for {@link PailDiff}.
 */
final class Differ {
  private final ShardLoader loader;
  /** Takes each changed key, ascending; false stops the walk. */
  private final Predicate<KeyChange> sink;
  /** The shards visited on each side, or null when they are not wanted. */
  private final Map<Cid, Block> added;
  private final Map<Cid, Block> removed;
  private boolean stopped;

  private Differ(ShardLoader loader, Predicate<KeyChange> sink, boolean keepBlocks) {
    this.loader = loader;
    this.sink = sink;
    this.added = keepBlocks ? new LinkedHashMap<>() : null;
    this.removed = keepBlocks ? new LinkedHashMap<>() : null;
  }

  /** The keys and the shard blocks that differ. */
  static PailDiff diff(ShardLoader loader, Cid a, Cid b) {
    List<KeyChange> keys = new ArrayList<>();
    Differ differ = new Differ(loader, keys::add, true);
    differ.walk(a, b);
    List<Cid> both = new ArrayList<>(differ.added.keySet());
    both.retainAll(differ.removed.keySet());
    both.forEach(cid -> {
      differ.added.remove(cid);
      differ.removed.remove(cid);
    });
    return new PailDiff(keys, new ArrayList<>(differ.added.values()),
        new ArrayList<>(differ.removed.values()));
  }

  /** Passes the keys that differ to {@code sink}; returns false if it stopped the walk. */
  static boolean diffKeys(ShardLoader loader, Cid a, Cid b, Predicate<KeyChange> sink) {
    Differ differ = new Differ(loader, sink, false);
    differ.walk(a, b);
    return !differ.stopped;
  }

  private void walk(Cid a, Cid b) {
    if (!a.equals(b)) {
      compare("", a, b);
    }
  }

  private void compare(String prefix, Cid a, Cid b) {
    ShardLoader.Loaded la = loader.load(a);
    ShardLoader.Loaded lb = loader.load(b);
    visited(removed, a, la.block());
    visited(added, b, lb.block());
    List<ShardEntry> ea = la.shard().entries();
    List<ShardEntry> eb = lb.shard().entries();
    int i = 0;
    int j = 0;
    while (!stopped && (i < ea.size() || j < eb.size())) {
      ShardEntry x = i < ea.size() ? ea.get(i) : null;
      ShardEntry y = j < eb.size() ? eb.get(j) : null;
      String key = x == null ? y.key() : y == null ? x.key()
          : x.key().compareTo(y.key()) <= 0 ? x.key() : y.key();
      boolean inA = x != null && x.key().equals(key);
      boolean inB = y != null && y.key().equals(key);
      boolean linkA = inA && x.isLink();
      boolean linkB = inB && y.isLink();
      if (!linkA && !linkB) {
        change(prefix + key, inA ? x.data() : null, inB ? y.data() : null);
        i += inA ? 1 : 0;
        j += inB ? 1 : 0;
      } else if (linkA && linkB) {
        change(prefix + key, x.data(), y.data());
        if (!x.link().equals(y.link())) {
          compare(prefix + key, x.link(), y.link());
        }
        i++;
        j++;
      } else {
        // The shapes differ under this key: list both sides in full and merge them.
        int ie = i;
        while (ie < ea.size() && ea.get(ie).key().startsWith(key)) {
          ie++;
        }
        int je = j;
        while (je < eb.size() && eb.get(je).key().startsWith(key)) {
          je++;
        }
        merge(expand(prefix, ea.subList(i, ie), removed), expand(prefix, eb.subList(j, je),
            added));
        i = ie;
        j = je;
      }
    }
  }

  private void merge(List<PailEntry> a, List<PailEntry> b) {
    int i = 0;
    int j = 0;
    while (!stopped && (i < a.size() || j < b.size())) {
      int c = i == a.size() ? 1 : j == b.size() ? -1 : a.get(i).key().compareTo(b.get(j).key());
      if (c == 0) {
        change(a.get(i).key(), a.get(i++).value(), b.get(j++).value());
      } else if (c < 0) {
        change(a.get(i).key(), a.get(i++).value(), null);
      } else {
        change(b.get(j).key(), null, b.get(j++).value());
      }
    }
  }

  /**
   * Every key at and below {@code entries}, in order; the shards visited go to {@code seen}
   * (null: nowhere).
   */
  private List<PailEntry> expand(String prefix, List<ShardEntry> entries, Map<Cid, Block> seen) {
    List<PailEntry> out = new ArrayList<>();
    for (ShardEntry e : entries) {
      String key = prefix + e.key();
      if (e.data() != null) {
        out.add(new PailEntry(key, e.data()));
      }
      if (e.isLink()) {
        ShardLoader.Loaded child = loader.load(e.link());
        visited(seen, e.link(), child.block());
        out.addAll(expand(key, child.shard().entries(), seen));
      }
    }
    return out;
  }

  private void change(String key, Cid before, Cid after) {
    if (!stopped && !Objects.equals(before, after)) {
      stopped = !sink.test(new KeyChange(key, before, after));
    }
  }

  private static void visited(Map<Cid, Block> seen, Cid cid, Block block) {
    if (seen != null) {
      seen.put(cid, block);
    }
  }
}
