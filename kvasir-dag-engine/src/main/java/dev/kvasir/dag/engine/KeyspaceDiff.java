package dev.kvasir.dag.engine;

import dev.kvasir.dag.KeyChange;
import dev.kvasir.dag.Pail;
import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Path;
import java.util.function.Predicate;

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
   * Passes the changes from state {@code from} to state {@code to} of the database in {@code
   * dir}, each as {@link DagEngine#openAt} takes it ({@code to} null: the newest), to {@code
   * sink} as the walk finds them, until it returns false. It holds neither the changes nor the
   * shards it read: a diff of half a million keys held both, 2.6 GB, before it printed one.
   *
   * @return false if {@code sink} stopped it
   */
  public static boolean between(Path dir, String from, String to, Predicate<Change> sink) {
    try (BlockLog blocks = BlockLog.open(dir, true)) {
      Cid a = CommitRecord.of(blocks.require(DagEngine.find(blocks, from))).keyspace();
      Cid b = CommitRecord.of(blocks.require(to == null ? blocks.lastCommit()
          : DagEngine.find(blocks, to))).keyspace();
      Pail pail = CanonicalPail.open(blocks).reader();
      return pail.diffKeys(a, b, k -> {
        RawKey key = Keyspace.rawKey(k.key());
        return sink.test(new Change(key, entry(blocks, key, k.before()),
            entry(blocks, key, k.after())));
      });
    }
  }

  private static StoredEntry entry(BlockLog blocks, RawKey key, Cid block) {
    if (block == null) {
      return null;
    }
    return Keyspace.row(key, blocks.require(block)).stored();
  }
}
