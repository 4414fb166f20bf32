package dev.kvasir.dag.engine;

import dev.kvasir.dag.CanonicalBuilder;
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
 *
 * <p>Changes that all come in ascending key order are not held past {@link #STREAM_AFTER}
 * (docs/dag-engine.md §2, "Large transactions"). Onto the empty pail, puts (a load, a restore, a
 * first backup copy) stream into a {@link CanonicalBuilder}, which holds only the path to the
 * last key; anything else the view is asked first finishes that build and uses its root as the
 * committed one. Onto any other pail (a backup copy after many changes), each
 * {@link #STREAM_AFTER} of them are applied to the root and dropped from the map. Puts onto the
 * empty pail in no order (a restore's expiry index) are packed into {@link UnsortedPuts} past
 * {@link #STREAM_AFTER} while nothing is read, and sorted into a build at the commit. Not
 * thread-safe: one transaction, one thread.
 */
final class PailView {
  /**
   * Changes held in the map before they stream, are applied or are packed: an ordinary
   * transaction never has so many (Deno's limit is 1 000 mutations).
   */
  static final int STREAM_AFTER = 4096;

  private final CanonicalPail pail;
  private final Pail reader;
  private Cid root;
  private final TreeMap<String, Cid> changes = new TreeMap<>();
  /** Whether every change so far was a put above the ones before, onto the empty pail. */
  private boolean ascending;
  /**
   * The key of the last change while every change so far, put or removal, was above the ones
   * before it (those applied already included); null before the first change or once one was
   * not.
   */
  private String lastOrdered;
  private boolean ordered = true;
  /** The puts past {@link #STREAM_AFTER}, while they stay ascending; else null. */
  private CanonicalBuilder streamed;
  /**
   * Whether every change so far was a put onto the empty pail, with nothing read: then the puts
   * that do not stream are packed past {@link #STREAM_AFTER} and sorted at the commit.
   */
  private boolean onlyPuts;
  /** The puts past {@link #STREAM_AFTER}, in no order, while {@link #onlyPuts}; else null. */
  private UnsortedPuts unsorted;

  PailView(CanonicalPail pail, Pail reader, Cid root) {
    this.pail = pail;
    this.reader = reader;
    this.root = root;
    this.ascending = root.equals(Pail.EMPTY_ROOT);
    this.onlyPuts = ascending;
  }

  Cid get(String key) {
    sortPuts();
    if (streamed != null) {
      int c = key.compareTo(streamed.lastKey());
      if (c >= 0) {
        return c == 0 ? streamed.lastValue() : null; // nothing above it, the pail being empty
      }
      stopStreaming();
    }
    return changes.containsKey(key) ? changes.get(key) : reader.get(root, key);
  }

  void put(String key, Cid value) {
    if (streamed != null) {
      if (key.compareTo(streamed.lastKey()) > 0) {
        streamed.add(key, value);
        lastOrdered = key;
        return;
      }
      stopStreaming();
    }
    if (unsorted != null) {
      if (UnsortedPuts.holds(key)) {
        unsorted.add(key, value);
        return;
      }
      sortPuts();
    }
    ascending = ascending && (changes.isEmpty() || key.compareTo(changes.lastKey()) > 0);
    change(key, value);
    if (ascending && changes.size() > STREAM_AFTER) {
      streamed = pail.builder();
      changes.forEach(streamed::add);
      changes.clear();
    } else if (onlyPuts && changes.size() > STREAM_AFTER) {
      onlyPuts = changes.keySet().stream().allMatch(UnsortedPuts::holds);
      if (onlyPuts) {
        unsorted = new UnsortedPuts();
        changes.forEach(unsorted::add);
        changes.clear();
      }
    }
  }

  void remove(String key) {
    sortPuts();
    onlyPuts = false;
    stopStreaming();
    ascending = false;
    change(key, null);
  }

  /**
   * Records a change. Ascending changes are applied in parts: each part touches the paths of its
   * own keys, and the parts share only the shards above the key where one ends and the next
   * begins, so the few shards the next part replaces are all that stays in the file unused.
   * Changes in any other order could touch the same shards in every part; they wait for the
   * commit.
   */
  private void change(String key, Cid value) {
    ordered = ordered && (lastOrdered == null || key.compareTo(lastOrdered) > 0);
    lastOrdered = ordered ? key : null;
    changes.put(key, value);
    if (ordered && !ascending && changes.size() >= STREAM_AFTER) {
      root = pail.apply(root, changes);
      changes.clear();
    }
  }

  /**
   * Finishes the streamed build, if any, as the root the changes from now on apply to: its
   * shards stay in the transaction even if later changes replace some of them.
   */
  private void stopStreaming() {
    if (streamed != null) {
      root = streamed.finish();
      streamed = null;
      onlyPuts = false; // the root holds them now
    }
    ascending = false;
  }

  /**
   * Moves the unsorted puts, if any, into the map, where they can be read: only a load that never
   * reads what it put before its commit keeps them packed.
   */
  private void sortPuts() {
    if (unsorted != null) {
      unsorted.forEachSorted(changes::put);
      unsorted = null;
    }
    onlyPuts = false;
  }

  /** The entries with keys in {@code [from, to)} ({@code to} null: no end), in key order. */
  Iterator<PailEntry> range(String from, String to, boolean reverse) {
    sortPuts();
    stopStreaming();
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
    sortPuts();
    stopStreaming();
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

  /** How many puts are packed, waiting to be sorted: for tests. */
  int packedPuts() {
    return unsorted == null ? 0 : unsorted.size();
  }

  /** The new root: the committed one with the changes applied. */
  Cid commit() {
    if (streamed != null) {
      return streamed.finish(); // the map is empty while the puts stream
    }
    if (unsorted != null) { // so is it while they are packed, onto the empty pail
      CanonicalBuilder sorted = pail.builder();
      unsorted.forEachSorted(sorted::add);
      return sorted.finish();
    }
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
