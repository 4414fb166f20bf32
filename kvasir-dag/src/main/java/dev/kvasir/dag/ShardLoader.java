package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.CorruptBlockException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads shards from a blockstore through a small LRU cache of decoded shards. The cache holds
 * blocks only, never a key prefix: identical blocks reachable under different prefixes are one
 * immutable value (unlike pail's decode cache, E1).
 *
 * <p>It is bounded by what it keeps on the heap, at most 256 MiB or a sixteenth of the heap,
 * whichever is less (docs/dag-engine.md §2). A cached shard keeps its block and its decoded
 * entries, which take four to five times the block's bytes, so it counts as five times them.
 */
final class ShardLoader {
  /** A shard and the block it was decoded from (or encoded into). */
  record Loaded(Block block, Shard shard) {}

  private static final long CACHE_BYTES = Math.min(256L << 20,
      Runtime.getRuntime().maxMemory() / 16);
  /** What a cached shard keeps on the heap per byte of its block: the block and its entries. */
  private static final int HEAP_PER_BLOCK_BYTE = 5;

  private final Blockstore store;
  private final long cacheBytes;
  private final LinkedHashMap<Cid, Loaded> cache = new LinkedHashMap<>(64, 0.75f, true);
  /** What the cached shards keep on the heap, as {@link #HEAP_PER_BLOCK_BYTE} counts it. */
  private long cachedBytes;

  ShardLoader(Blockstore store) {
    this(store, CACHE_BYTES);
  }

  /**
   * With a cache that keeps at most {@code cacheBytes} on the heap: 0 keeps nothing, as a test of
   * what relies on it.
   */
  ShardLoader(Blockstore store, long cacheBytes) {
    this.store = store;
    this.cacheBytes = cacheBytes;
  }

  Blockstore store() {
    return store;
  }

  Loaded load(Cid cid) {
    Loaded hit = cached(cid);
    if (hit != null) {
      return hit;
    }
    if (cid.codec() != Cid.DAG_CBOR) {
      throw new CorruptBlockException(cid, "not a pail shard: codec 0x"
          + Long.toHexString(cid.codec()) + " is not dag-cbor (0x71)");
    }
    return decode(store.require(cid));
  }

  /** The shard of a block at hand: one made and not yet stored. */
  Loaded load(Block block) {
    Loaded hit = cached(block.cid());
    return hit != null ? hit : decode(block);
  }

  private Loaded cached(Cid cid) {
    synchronized (cache) {
      return cache.get(cid);
    }
  }

  private Loaded decode(Block block) {
    Loaded loaded = new Loaded(block, Shard.decode(block));
    remember(loaded);
    return loaded;
  }

  /** Encodes a new shard into a block and caches the pair. */
  Loaded encode(Shard shard) {
    Loaded loaded = new Loaded(shard.toBlock(), shard);
    remember(loaded);
    return loaded;
  }

  private void remember(Loaded loaded) {
    synchronized (cache) {
      if (cache.put(loaded.block().cid(), loaded) == null) {
        cachedBytes += heapBytes(loaded);
      }
      var it = cache.entrySet().iterator();
      while (cachedBytes > cacheBytes && it.hasNext()) {
        Map.Entry<Cid, Loaded> eldest = it.next();
        cachedBytes -= heapBytes(eldest.getValue());
        it.remove();
      }
    }
  }

  private static long heapBytes(Loaded loaded) {
    return (long) loaded.block().size() * HEAP_PER_BLOCK_BYTE;
  }
}
