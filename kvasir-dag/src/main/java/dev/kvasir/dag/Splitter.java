package dev.kvasir.dag;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an over-full shard by longest common prefix ({@code docs/pail.md}
 * §1.7, §3.2).
 *
 * <p>Starting from the inserted entry's key (then the next keys in order, wrapping around),
 * drop one trailing code unit at a time until some other entry shares the candidate; those
 * entries move, with the candidate stripped, into a new child shard linked under it.
 *
 * <p>Two deliberate differences from pail 0.3.4, both where the spec says otherwise:
 * <ul>
 *   <li>E6: the split repeats until the shard fits, and a child that is itself too large is
 *       split the same way (the reference splits once and checks nothing after it);</li>
 *   <li>E4: a candidate never ends between the two halves of a surrogate pair.</li>
 * </ul>
 * Whenever a single split suffices and no surrogate pair is involved, the result is
 * identical to the reference; {@link PailOptions#oneSplitPerPut} restores the first one.
 */
final class Splitter {
  private final int maxShardSize;
  private final boolean once;
  private final ShardLoader loader;
  private final List<ShardLoader.Loaded> created;

  /** New child shards are encoded through {@code loader} and appended to {@code created}. */
  Splitter(PailOptions options, ShardLoader loader, List<ShardLoader.Loaded> created) {
    this.maxShardSize = options.maxShardSize();
    this.once = options.oneSplitPerPut();
    this.loader = loader;
    this.created = created;
  }

  /**
   * Splits {@code entries} (sorted, mutable) until they fit, or once in reference mode; the
   * base is entry {@code base}.
   */
  Shard fit(List<ShardEntry> entries, int base) {
    int size;
    while ((size = Shard.sizeOf(entries)) > maxShardSize) {
      int[] range = commonPrefixRange(entries, base);
      if (range == null) {
        throw new ShardLimitException(size, maxShardSize);
      }
      base = split(entries, range[0], range[1], range[2], base);
      if (once) {
        break;
      }
    }
    return Shard.of(entries);
  }

  /**
   * Moves entries {@code [lo, hi)}, which all start with a prefix of {@code prefixLength}
   * units, into a child shard; returns the index of the new link entry.
   */
  private int split(List<ShardEntry> entries, int lo, int hi, int prefixLength, int base) {
    String prefix = entries.get(lo).key().substring(0, prefixLength);
    ShardEntry own = entries.get(lo).key().equals(prefix) ? entries.get(lo) : null;
    if (own != null && own.isLink()) {
      throw new IllegalStateException("expected \"" + prefix + "\" to be user data, found a"
          + " shard link");
    }
    List<ShardEntry> child = new ArrayList<>(hi - lo);
    int childBase = 0;
    for (int i = own == null ? lo : lo + 1; i < hi; i++) {
      if (i == base) {
        childBase = child.size();
      }
      child.add(entries.get(i).withKey(entries.get(i).key().substring(prefixLength)));
    }
    ShardLoader.Loaded encoded = loader.encode(once ? Shard.of(child) : fit(child, childBase));
    created.add(encoded);
    entries.subList(lo, hi).clear();
    entries.add(lo, ShardEntry.link(prefix, encoded.block().cid(),
        own == null ? null : own.data()));
    return lo;
  }

  /**
   * {@code [lo, hi, prefixLength]} of the first group found, or null. Entries sharing a prefix
   * are contiguous in sorted order, so a candidate is shared exactly when a neighbour of the
   * base starts with it.
   */
  static int[] commonPrefixRange(List<ShardEntry> entries, int start) {
    int n = entries.size();
    for (int t = 0; t < n; t++) {
      int i = (start + t) % n;
      String key = entries.get(i).key();
      for (int len = shorter(key, key.length()); len > 0; len = shorter(key, len)) {
        String candidate = key.substring(0, len);
        boolean shared = (i > 0 && entries.get(i - 1).key().startsWith(candidate))
            || (i + 1 < n && entries.get(i + 1).key().startsWith(candidate));
        if (shared) {
          int lo = i;
          while (lo > 0 && entries.get(lo - 1).key().startsWith(candidate)) {
            lo--;
          }
          int hi = i + 1;
          while (hi < n && entries.get(hi).key().startsWith(candidate)) {
            hi++;
          }
          return new int[] {lo, hi, len};
        }
      }
    }
    return null;
  }

  /** The next shorter candidate length: one unit less, two if that would split a pair. */
  static int shorter(String key, int length) {
    int len = length - 1;
    if (len > 0 && Character.isHighSurrogate(key.charAt(len - 1))
        && Character.isLowSurrogate(key.charAt(len))) {
      len--;
    }
    return len;
  }
}
