package dev.kvasir.dag.engine;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvException;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;

/**
 * Point-in-time restore (docs/backup.md §3): a past state of a {@code dag:} database or backup,
 * copied into an empty database of any engine with its versionstamps and expiries.
 */
public final class PointInTime {
  private PointInTime() {}

  /**
   * What was restored.
   *
   * @param entries the entries written
   * @param commit the backup commit they came from
   * @param version its database version, which the target's next commit is above
   * @param time when that state was read from its source
   */
  public record Restored(long entries, Cid commit, long version, Instant time) {}

  /**
   * Copies the state of the KV/DAG database in {@code dir} at {@code at} (as {@link
   * DagEngine#openAt} takes it; null for the newest) into {@code target} in one transaction.
   * Every block read is checked against its hash: a damaged one fails the restore, naming the
   * block, and its transaction commits nothing.
   *
   * @throws KvException if {@code target} holds entries
   */
  public static Restored restore(Path dir, String at, KvEngine target) {
    return restore(dir, at, target, () -> false);
  }

  /**
   * {@link #restore(Path, String, KvEngine)} that gives up once {@code stopRequested} answers
   * true, which it asks before each entry (docs/backup.md §3).
   *
   * @throws CancellationException if it gave up; the target's transaction committed nothing
   */
  public static Restored restore(Path dir, String at, KvEngine target,
      BooleanSupplier stopRequested) {
    if (!target.snapshotRead(List.of(new ReadRange(RawKey.BELOW_ALL, RawKey.ABOVE_ALL, 1,
        false)), Consistency.STRONG).get(0).isEmpty()) {
      throw new KvException("the target database holds entries; restore into a new or empty"
          + " one");
    }
    try (DagEngine source = at == null ? DagEngine.openReadOnly(dir) : DagEngine.openAt(dir, at)) {
      // Read as the target stores them, not gathered first: a restore of a large state held
      // every entry twice (docs/backup.md §3).
      Iterable<StoredEntry> live = source.liveEntries(System.currentTimeMillis());
      long[] count = {0};
      target.load(() -> {
        count[0] = 0; // a target that retries its transaction reads them again
        return StreamSupport.stream(live.spliterator(), false).peek(e -> {
          StopRequests.check(stopRequested, "restore");
          count[0]++;
        }).iterator();
      });
      CommitRecord head = source.head();
      return new Restored(count[0], source.headCid(), head.version(), head.time());
    }
  }
}
