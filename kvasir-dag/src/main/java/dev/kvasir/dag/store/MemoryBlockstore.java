package dev.kvasir.dag.store;

import dev.kvasir.dag.cid.Cid;
import java.util.concurrent.ConcurrentHashMap;

/** Blocks in a hash map; for tests, caches and short-lived work. */
public final class MemoryBlockstore implements Blockstore {
  /** An empty store. */
  public MemoryBlockstore() {}

  private final ConcurrentHashMap<Cid, Block> blocks = new ConcurrentHashMap<>();

  @Override
  public Block get(Cid cid) {
    return blocks.get(cid);
  }

  @Override
  public void put(Block block) {
    blocks.putIfAbsent(block.cid(), block);
  }

  @Override
  public void delete(Cid cid) {
    blocks.remove(cid);
  }

  public int size() {
    return blocks.size();
  }
}
