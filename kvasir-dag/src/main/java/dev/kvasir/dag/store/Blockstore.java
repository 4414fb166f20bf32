package dev.kvasir.dag.store;

import dev.kvasir.dag.cid.Cid;

/**
 * Content-addressed block storage. Implementations are safe for concurrent use. A block is
 * never changed once stored; {@code put} of a block already present does nothing.
 */
public interface Blockstore {
  /** The block, or {@code null} if this store does not have it. */
  Block get(Cid cid);

  void put(Block block);

  void delete(Cid cid);

  default boolean has(Cid cid) {
    return get(cid) != null;
  }

  /** The block, which must be present. */
  default Block require(Cid cid) {
    Block block = get(cid);
    if (block == null) {
      throw new MissingBlockException(cid);
    }
    return block;
  }
}
