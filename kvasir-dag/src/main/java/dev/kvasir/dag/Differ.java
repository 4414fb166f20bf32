package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Computes {@link Pail#diff}: walks both DAGs side by side and descends only where links
 * differ. Where the two shapes disagree (a link on one side, plain keys on the other) both
 * sides' keys under that prefix are listed and merged. Unlike pail's {@code difference}
 * (E10), every changed key is reported with its real before/after values.
 */
final class Differ {
  private final ShardLoader loader;
  private final List<KeyChange> keys = new ArrayList<>();
  private final Map<Cid, Block> added = new LinkedHashMap<>();
  private final Map<Cid, Block> removed = new LinkedHashMap<>();

  Differ(ShardLoader loader) {
    this.loader = loader;
  }

  PailDiff diff(Cid a, Cid b) {
    if (!a.equals(b)) {
      compare("", a, b);
    }
    List<Cid> both = new ArrayList<>(added.keySet());
    both.retainAll(removed.keySet());
    both.forEach(cid -> {
      added.remove(cid);
      removed.remove(cid);
    });
    return new PailDiff(keys, new ArrayList<>(added.values()),
        new ArrayList<>(removed.values()));
  }

  private void compare(String prefix, Cid a, Cid b) {
    ShardLoader.Loaded la = loader.load(a);
    ShardLoader.Loaded lb = loader.load(b);
    removed.put(a, la.block());
    added.put(b, lb.block());
    List<ShardEntry> ea = la.shard().entries();
    List<ShardEntry> eb = lb.shard().entries();
    int i = 0;
    int j = 0;
    while (i < ea.size() || j < eb.size()) {
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
    while (i < a.size() || j < b.size()) {
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

  /** Every key at and below {@code entries}, in order; the shards visited go to {@code seen}. */
  private List<PailEntry> expand(String prefix, List<ShardEntry> entries, Map<Cid, Block> seen) {
    List<PailEntry> out = new ArrayList<>();
    for (ShardEntry e : entries) {
      String key = prefix + e.key();
      if (e.data() != null) {
        out.add(new PailEntry(key, e.data()));
      }
      if (e.isLink()) {
        ShardLoader.Loaded child = loader.load(e.link());
        seen.put(e.link(), child.block());
        out.addAll(expand(key, child.shard().entries(), seen));
      }
    }
    return out;
  }

  private void change(String key, Cid before, Cid after) {
    if (!Objects.equals(before, after)) {
      keys.add(new KeyChange(key, before, after));
    }
  }
}
