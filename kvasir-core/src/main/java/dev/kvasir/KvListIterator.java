package dev.kvasir;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.key.KeyRange;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The entries of a {@link Kv#list list}, fetched in batches as iteration proceeds (so a long
 * list is not one snapshot, as in Deno) and never buffered whole. Iterable once. {@link
 * #cursor()} names the position after the last entry returned, so that {@code
 * ListOptions.cursor(it.cursor())} resumes at the next entry, in either direction. Not
 * thread-safe.
 */
public final class KvListIterator implements Iterator<KvEntry>, Iterable<KvEntry> {
  private final Kv kv;
  private final byte[] cursorPrefix;
  /** The selection's prefix, whose parts every listed key shares; null for a range. */
  private final KvKey keyPrefix;
  private final int limit;
  /** The size of the next batch, which grows if the caller did not choose it. */
  private int batchSize;
  private final boolean growBatches;
  private final boolean reverse;
  private final Consistency consistency;
  /** The most parts a listed key may have (the prefix's and the depth's), or 0 for no limit. */
  private final int maxParts;
  /** The next entry's key, once {@link #hasNext} decoded it to check its depth. */
  private KvKey peeked;
  /** The batch being walked, and the index of its next entry. */
  private List<RawEntry> batch = List.of();
  private int next;
  private RawKey start;
  private RawKey end;
  private int returned;
  private boolean lastBatch;
  private boolean exhausted;
  private RawKey lastKey;

  KvListIterator(Kv kv, ListSelector selector, ListOptions options) {
    this.kv = kv;
    KeyRange range = selector.keyRange();
    this.start = RawKey.of(range.start());
    this.end = RawKey.of(range.end());
    Limits.checkReadBound(start.length());
    Limits.checkReadBound(end.length());
    this.cursorPrefix = selector.cursorPrefix();
    this.keyPrefix = selector.prefix();
    this.limit = options.limit() > 0 ? options.limit() : Integer.MAX_VALUE;
    this.batchSize = options.batchSize();
    Limits.checkReadEntries(batchSize);
    this.growBatches = !options.batchSizeGiven();
    this.reverse = options.reverse();
    this.consistency = options.consistency();
    if (options.depth() > 0 && keyPrefix == null) {
      throw new KvArgumentException("a depth limit needs a prefix selector, not " + selector);
    }
    this.maxParts = options.depth() > 0 ? keyPrefix.size() + options.depth() : 0;
    if (!options.cursor().isEmpty()) {
      resumeAt(RawKey.of(concat(cursorPrefix, Cursors.decode(options.cursor()))));
    }
  }

  @Override
  public boolean hasNext() {
    Step step;
    while ((step = advance()) == Step.FETCH) {
      fetch();
    }
    return step == Step.ENTRY;
  }

  /** What comes next: an entry, the end, or a batch to read first. */
  private enum Step { ENTRY, END, FETCH }

  private Step advance() {
    while (true) {
      if (returned >= limit || exhausted) {
        return Step.END;
      }
      if (next == batch.size() && !lastBatch) {
        return Step.FETCH;
      }
      if (next == batch.size()) {
        exhausted = true;
        return Step.END;
      }
      if (maxParts == 0 || withinDepth()) {
        return Step.ENTRY;
      }
    }
  }

  /**
   * Every remaining entry, each batch read without a thread waiting for it (for {@link
   * AsyncKv#list}); the steps between batches run on {@code executor}.
   */
  CompletableFuture<List<KvEntry>> remainingAsync(Executor executor) {
    List<KvEntry> out = new ArrayList<>();
    return remainingAsync(out, executor);
  }

  private CompletableFuture<List<KvEntry>> remainingAsync(List<KvEntry> out, Executor executor) {
    try {
      Step step;
      while ((step = advance()) == Step.ENTRY) {
        out.add(next());
      }
      if (step == Step.END) {
        return CompletableFuture.completedFuture(out);
      }
      int want = batchWanted();
      return kv.readAsync(List.of(range(want)), consistency).thenComposeAsync(read -> {
        took(read.get(0), want);
        return remainingAsync(out, executor);
      }, executor);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Whether the next entry lies within the depth limit; if not, skips the whole subtree it lies
   * in, whose root has the most parts allowed (docs/list.md §4).
   */
  private boolean withinDepth() {
    if (peeked == null) {
      try {
        peeked = KvKey.decodeShared(batch.get(next).key().sharedBytes(), keyPrefix);
      } catch (KvDecodeException e) {
        return true; // next() reports it
      }
    }
    if (peeked.size() <= maxParts) {
      return true;
    }
    RawKey root = KvKey.of(peeked.parts().subList(0, maxParts).toArray()).raw();
    peeked = null;
    // Every key below the root lies in [root‖00, root‖FF): step over that range.
    if (reverse) {
      end = root.append(0x00);
    } else {
      start = root.append(0xff);
    }
    batch = List.of();
    next = 0;
    lastBatch = start.compareTo(end) >= 0;
    return false;
  }

  /**
   * The next entry.
   *
   * @throws KvCorruptEntryException if the next stored key does not decode; that entry counts
   *     as visited, so the following call continues after it
   */
  @Override
  public KvEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    RawEntry raw = batch.get(next++);
    returned++;
    lastKey = raw.key();
    KvKey key = peeked;
    peeked = null;
    if (key == null) {
      try {
        key = KvKey.decodeShared(raw.key().sharedBytes(), keyPrefix);
      } catch (KvDecodeException e) {
        throw new KvCorruptEntryException(raw.key().sharedBytes(), null, e.getMessage());
      }
    }
    return new KvEntry(key, raw.value(), raw.versionstamp(), kv.mapper());
  }

  /** This iterator itself: a list can be walked once, e.g. by a for-each loop. */
  @Override
  public Iterator<KvEntry> iterator() {
    return this;
  }

  /** The remaining entries as a sequential stream. */
  public Stream<KvEntry> stream() {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  /**
   * Where this iteration stands: {@code ""} once every entry was seen, otherwise a token (Deno's
   * format) to pass to {@link ListOptions#cursor(String)} to continue after the last entry
   * returned.
   *
   * @throws IllegalStateException before the first entry was asked for
   */
  public String cursor() {
    if (exhausted) {
      return "";
    }
    if (lastKey == null) {
      throw new IllegalStateException("Cannot get cursor before first iteration");
    }
    return Cursors.encode(cursorPrefix, lastKey.bytes());
  }

  private void fetch() {
    int want = batchWanted();
    took(kv.read(List.of(range(want)), consistency).get(0), want);
  }

  private int batchWanted() {
    return (int) Math.min(batchSize, (long) limit - returned);
  }

  private ReadRange range(int want) {
    return new ReadRange(start, end, want, reverse);
  }

  /** Makes {@code read}, a batch of up to {@code want} entries, the one being walked. */
  private void took(List<RawEntry> read, int want) {
    batch = read;
    next = 0;
    lastBatch = batch.size() < want;
    if (growBatches) {
      // Fewer reads for long lists, while a short one still reads little (docs/list.md §2)
      batchSize = Math.min(2 * batchSize, ListOptions.MAX_DEFAULT_BATCH);
    }
    if (!batch.isEmpty()) {
      resumeAt(batch.get(batch.size() - 1).key());
    }
  }

  /** Narrows the range to what lies after {@code key} in iteration order (§8). */
  private void resumeAt(RawKey key) {
    if (reverse) {
      if (key.compareTo(end) > 0) {
        throw new KvArgumentException("cursor out of bounds");
      }
      end = key;
    } else {
      RawKey next = key.append(0x00);
      if (next.compareTo(start) < 0) {
        throw new KvArgumentException("cursor out of bounds");
      }
      start = next;
    }
    if (start.compareTo(end) > 0) {
      // A cursor past the far end of the selection: nothing is left.
      lastBatch = true;
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
