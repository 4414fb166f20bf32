package dev.kvasir.dag.engine;

import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.EntriesQuery;
import dev.kvasir.dag.Pail;
import dev.kvasir.dag.PailEntry;
import dev.kvasir.dag.cid.Cid;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A pail root as a transaction sees it: the committed entries with the transaction's own
 * changes on top ({@code null} for a removed key), which {@link #commit} turns into a new root.
 * Not thread-safe: one transaction, one thread.
 */
final class PailView {
  private final Pail reader;
  private final Cid root;
  private final TreeMap<String, Cid> changes = new TreeMap<>();

  PailView(Pail reader, Cid root) {
    this.reader = reader;
    this.root = root;
  }

  Cid get(String key) {
    return changes.containsKey(key) ? changes.get(key) : reader.get(root, key);
  }

  void put(String key, Cid value) {
    changes.put(key, value);
  }

  void remove(String key) {
    changes.put(key, null);
  }

  /** The entries with keys in {@code [from, to)} ({@code to} null: no end), in key order. */
  Iterator<PailEntry> range(String from, String to, boolean reverse) {
    EntriesQuery query = EntriesQuery.all().gte(from);
    if (to != null) {
      query = query.lt(to);
    }
    NavigableMap<String, Cid> mine = to == null ? changes.tailMap(from, true)
        : changes.subMap(from, true, to, false);
    return select(query, mine, reverse);
  }

  /** The entries whose keys start with {@code prefix}, in key order. */
  Iterator<PailEntry> prefixed(String prefix) {
    TreeMap<String, Cid> mine = new TreeMap<>();
    for (Map.Entry<String, Cid> e : changes.tailMap(prefix, true).entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break;
      }
      mine.put(e.getKey(), e.getValue());
    }
    return select(EntriesQuery.prefix(prefix), mine, false);
  }

  private Iterator<PailEntry> select(EntriesQuery query, NavigableMap<String, Cid> mine,
      boolean reverse) {
    Iterator<PailEntry> merged = mine.isEmpty() ? reader.entries(root, query).iterator()
        : new Merged(reader.entries(root, query).iterator(), mine.entrySet().iterator());
    if (!reverse) {
      return merged;
    }
    // Pails walk forwards only: a reverse range is read whole (docs/dag-engine.md §5).
    List<PailEntry> all = new ArrayList<>();
    merged.forEachRemaining(all::add);
    Collections.reverse(all);
    return all.iterator();
  }

  /** The new root: the committed one with the changes applied. */
  Cid commit(CanonicalPail pail) {
    return changes.isEmpty() ? root : pail.apply(root, changes);
  }

  /** Two ascending streams of entries, the second's winning on equal keys, null values dropped. */
  private static final class Merged implements Iterator<PailEntry> {
    private final Iterator<PailEntry> base;
    private final Iterator<Map.Entry<String, Cid>> overlay;
    private PailEntry nextBase;
    private Map.Entry<String, Cid> nextOverlay;
    private PailEntry next;

    Merged(Iterator<PailEntry> base, Iterator<Map.Entry<String, Cid>> overlay) {
      this.base = base;
      this.overlay = overlay;
      nextBase = base.hasNext() ? base.next() : null;
      nextOverlay = overlay.hasNext() ? overlay.next() : null;
      advance();
    }

    private void advance() {
      next = null;
      while (next == null && (nextBase != null || nextOverlay != null)) {
        int c = nextBase == null ? 1 : nextOverlay == null ? -1
            : nextBase.key().compareTo(nextOverlay.getKey());
        if (c < 0) {
          next = nextBase;
          nextBase = base.hasNext() ? base.next() : null;
        } else {
          if (nextOverlay.getValue() != null) {
            next = new PailEntry(nextOverlay.getKey(), nextOverlay.getValue());
          }
          if (c == 0) {
            nextBase = base.hasNext() ? base.next() : null;
          }
          nextOverlay = overlay.hasNext() ? overlay.next() : null;
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public PailEntry next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      PailEntry out = next;
      advance();
      return out;
    }
  }
}
