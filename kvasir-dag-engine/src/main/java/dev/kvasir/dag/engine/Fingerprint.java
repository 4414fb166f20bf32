package dev.kvasir.dag.engine;

import dev.kvasir.dag.CanonicalBuilder;
import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.spi.KvEngine;

/**
 * The keyspace root of any engine's current state (docs/dag-keyspace.md §3): the same entries,
 * versionstamps and expiries give the same CID on every engine, whatever order wrote them.
 */
public final class Fingerprint {
  /**
   * Keeps nothing: only the root is wanted, and a build from sorted entries never reads a
   * shard back, so a fingerprint of millions of entries holds one path of the trie.
   */
  private static final Blockstore NOWHERE = new Blockstore() {
    @Override
    public Block get(Cid cid) {
      return null;
    }

    @Override
    public void put(Block block) {}

    @Override
    public void delete(Cid cid) {}
  };

  private Fingerprint() {}

  /** Computes the root from the engine's entries as its dump passes them, in key order. */
  public static Cid of(KvEngine engine) {
    CanonicalBuilder builder = CanonicalPail.open(NOWHERE).builder();
    engine.dump(e -> builder.add(Keyspace.pailKey(e.key()),
        Keyspace.entryBlock(e.value(), e.versionstamp().version(), e.expireAtMs()).cid()));
    return builder.finish();
  }
}
