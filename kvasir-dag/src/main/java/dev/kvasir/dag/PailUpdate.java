package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.util.List;

/**
 * The result of a put or delete: the new root, the shard blocks it created (new root last;
 * already written to the pail's blockstore) and the shards it replaced (old path, root first).
 *
 * <p>Replaced blocks stay in the store: older roots still use them, and an identical block may
 * be linked from elsewhere in the same DAG. Delete them only if you know neither is the case.
 * A call that changes nothing returns the old root and two empty lists.
 */
public record PailUpdate(Cid root, List<Block> additions, List<Block> removals) {
  public PailUpdate {
    additions = List.copyOf(additions);
    removals = List.copyOf(removals);
  }

  public boolean changed() {
    return !additions.isEmpty();
  }
}
