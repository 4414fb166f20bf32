package dev.kvasir.dag;

import dev.kvasir.dag.store.Block;
import java.util.List;

/**
 * What changed from root A to root B: the keys added, removed or changed (ascending), and the
 * shard blocks only B reaches ({@code additions}) or only A reaches ({@code removals}).
 */
public record PailDiff(List<KeyChange> keys, List<Block> additions, List<Block> removals) {
  public PailDiff {
    keys = List.copyOf(keys);
    additions = List.copyOf(additions);
    removals = List.copyOf(removals);
  }
}
