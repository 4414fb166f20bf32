package dev.kvasir.dag.store;

import dev.kvasir.dag.cid.Cid;
import java.util.Objects;

/**
 * One store seen through another: reads try {@code top} first, then {@code under}; writes and
 * deletes touch {@code top} only, so {@code under} is never changed. Used to stage blocks
 * above a store (a batch) or to read two stores as one (a diff across stores).
 */
public record OverlayBlockstore(Blockstore top, Blockstore under) implements Blockstore {
  public OverlayBlockstore {
    Objects.requireNonNull(top, "top");
    Objects.requireNonNull(under, "under");
  }

  @Override
  public Block get(Cid cid) {
    Block b = top.get(cid);
    return b != null ? b : under.get(cid);
  }

  @Override
  public void put(Block block) {
    top.put(block);
  }

  @Override
  public void delete(Cid cid) {
    top.delete(cid);
  }
}
