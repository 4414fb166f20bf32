package dev.kvasir.dag.engine;

import dev.kvasir.dag.KeyChange;
import dev.kvasir.dag.Pail;
import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys that differ between two states of a {@code dag:} database, found by the KV/DAG
 * diff of their keyspace roots (docs/dag-keyspace.md §3): shards equal in both are skipped
 * whole, so the cost follows the change, not the size.
 */
public final class KeyspaceDiff {
  private KeyspaceDiff() {}

  /**
   * One changed key, ascending by key.
   *
   * @param before the entry in the first state, or null if it had none
   * @param after the entry in the second state, or null if it has none
   */
  public record Change(RawKey key, StoredEntry before, StoredEntry after) {}

  /**
   * The changes from state {@code from} to state {@code to} of the database in {@code dir},
   * each as {@link DagEngine#openAt} takes it ({@code to} null: the newest).
   */
  public static List<Change> between(Path dir, String from, String to) {
    try (BlockLog blocks = BlockLog.open(dir, true)) {
      Cid a = CommitRecord.of(blocks.require(DagEngine.find(blocks, from))).keyspace();
      Cid b = CommitRecord.of(blocks.require(to == null ? blocks.lastCommit()
          : DagEngine.find(blocks, to))).keyspace();
      Pail pail = CanonicalPail.open(blocks).reader();
      List<Change> out = new ArrayList<>();
      for (KeyChange k : pail.diff(a, b).keys()) {
        RawKey key = Keyspace.rawKey(k.key());
        out.add(new Change(key, entry(blocks, key, k.before()), entry(blocks, key, k.after())));
      }
      return out;
    }
  }

  private static StoredEntry entry(BlockLog blocks, RawKey key, Cid block) {
    if (block == null) {
      return null;
    }
    return Keyspace.row(key, blocks.require(block)).stored();
  }
}
