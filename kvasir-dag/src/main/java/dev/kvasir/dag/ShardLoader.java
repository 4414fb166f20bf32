package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.CorruptBlockException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads shards from a blockstore through a small LRU cache of decoded shards (bounded by their
 * encoded bytes). The cache holds blocks only, never a key prefix: identical blocks reachable
 * under different prefixes are one immutable value (unlike pail's decode cache, E1).
 *
 * <p>Its bound is 64 MiB of blocks or a thirty-second of the heap, whichever is less: decoded, a
 * shard takes four to five times its bytes on the heap, so 64 MiB alone was more than a 256 MiB
 * heap held, and a scan of a large pail, such as a restore, filled it.
 */
final class ShardLoader {
  /** A shard and the block it was decoded from (or encoded into). */
  record Loaded(Block block, Shard shard) {}

  private static final long CACHE_BYTES = Math.min(64L << 20,
      Runtime.getRuntime().maxMemory() / 32);

  private final Blockstore store;
  private final long cacheBytes;
  private final LinkedHashMap<Cid, Loaded> cache = new LinkedHashMap<>(64, 0.75f, true);
  private long cachedBytes;

  ShardLoader(Blockstore store) {
    this(store, CACHE_BYTES);
  }

  /** With a cache of {@code cacheBytes}: 0 keeps nothing, as a test of what relies on it. */
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
        cachedBytes += loaded.block().size();
      }
      var it = cache.entrySet().iterator();
      while (cachedBytes > cacheBytes && it.hasNext()) {
        Map.Entry<Cid, Loaded> eldest = it.next();
        cachedBytes -= eldest.getValue().block().size();
        it.remove();
      }
    }
  }
}
