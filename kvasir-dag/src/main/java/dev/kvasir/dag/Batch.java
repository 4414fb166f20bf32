package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.MemoryBlockstore;
import dev.kvasir.dag.store.OverlayBlockstore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Puts collected on top of one root and committed together ({@link Pail#batch}). The result
 * equals the same puts made one by one; the difference is that shards replaced within the
 * batch never reach the pail's blockstore. Not thread-safe; usable once.
 */
public final class Batch {
  private final Pail base;
  private final Cid from;
  private final MemoryBlockstore scratch = new MemoryBlockstore();
  private final Pail staged;
  private Cid root;
  private boolean committed;

  Batch(Pail base, Cid from) {
    this.base = base;
    this.from = from;
    this.staged = Pail.open(new OverlayBlockstore(scratch, base.store()), base.options());
    this.root = from;
  }

  /** Adds a put; fails at once (changing nothing) if the key cannot be put. */
  public Batch put(String key, Cid value) {
    if (committed) {
      throw new IllegalStateException("batch already committed");
    }
    root = staged.put(root, key, value).root();
    return this;
  }

  /**
   * Writes the shards the final root needs and reports them as additions; removals are the
   * shards of the starting root it no longer reaches.
   */
  public PailUpdate commit() {
    if (committed) {
      throw new IllegalStateException("batch already committed");
    }
    committed = true;
    if (root.equals(from)) {
      return new PailUpdate(from, List.of(), List.of());
    }
    PailDiff diff = staged.diff(from, root);
    List<Block> additions = new ArrayList<>(diff.additions());
    Collections.reverse(additions); // children before parents, the new root last
    for (Block b : additions) {
      base.store().put(b);
    }
    return new PailUpdate(root, additions, diff.removals());
  }
}
