package dev.kvasir.dag.engine;

import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.MemoryBlockstore;
import dev.kvasir.spi.KvEngine;
import java.util.TreeMap;

/**
 * The keyspace root of any engine's current state (docs/dag-keyspace.md §3): the same entries,
 * versionstamps and expiries give the same CID on every engine, whatever order wrote them.
 */
public final class Fingerprint {
  private Fingerprint() {}

  /** Computes the root in memory, keeping only the shards. */
  public static Cid of(KvEngine engine) {
    return of(engine, new MemoryBlockstore());
  }

  /** Computes the root, storing its shards (not the entry blocks) in {@code store}. */
  public static Cid of(KvEngine engine, Blockstore store) {
    TreeMap<String, Cid> entries = new TreeMap<>();
    engine.dump(e -> {
      Block block = Keyspace.entryBlock(e.value(), e.versionstamp().version(), e.expireAtMs());
      entries.put(Keyspace.pailKey(e.key()), block.cid());
    });
    return CanonicalPail.open(store).build(entries);
  }
}
