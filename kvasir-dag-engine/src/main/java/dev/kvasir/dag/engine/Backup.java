package dev.kvasir.dag.engine;

import dev.kvasir.base.KvException;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.engine.Restore;
import dev.kvasir.engine.Storage;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * A continuous backup of any engine into a {@code dag:} directory (docs/backup.md): each
 * {@link #take} copies the source's current state as one commit of the backup, storing only the
 * entry blocks and pail shards that changed, and dates it by when it was read, so the backup
 * opened {@code ?at=TIME} is the source as it was at that time.
 *
 * <p>It keeps each backed-up key's version in memory ({@link KeyVersions}, about 24 bytes for a
 * key of 12) to find what changed without reading the backup. One thread at a time.
 */
public final class Backup implements AutoCloseable {
  /**
   * One copied state.
   *
   * @param version the source's database version
   * @param entries the live entries it holds
   * @param changed entries written or removed since the previous copy
   * @param bytes what the backup grew by
   * @param commit the backup's commit record
   * @param time when the state was read
   */
  public record Snapshot(long version, long entries, long changed, long bytes, Cid commit,
      Instant time) {}

  private final BlockLog blocks;
  private final DagStorage storage;
  /** The backed-up keys, ascending, and their versions: the last copied state. */
  private KeyVersions copied = new KeyVersions();
  private long lastVersion = -1;

  private Backup(BlockLog blocks, DagStorage storage) {
    this.blocks = blocks;
    this.storage = storage;
    readHead();
  }

  /** Opens (creating if needed) the backup in {@code dir}, to continue where it ended. */
  public static Backup open(Path dir) {
    BlockLog blocks = BlockLog.open(dir, false);
    try {
      return new Backup(blocks, DagStorage.openForCopies(blocks));
    } catch (RuntimeException e) {
      blocks.close();
      throw e;
    }
  }

  private void readHead() {
    if (blocks.lastCommit() != null) {
      lastVersion = storage.read(snapshot -> {
        Iterator<Storage.Row> rows = snapshot.scan(RawKey.BELOW_ALL, RawKey.ABOVE_ALL, false);
        rows.forEachRemaining(row -> copied.add(row.key().bytes(), row.version()));
        return snapshot.version();
      });
    }
  }

  /** Copies the source's state if its version moved since the last copy (a cheap look). */
  public Optional<Snapshot> takeIfChanged(KvEngine source) {
    return takeIfChanged(source, () -> false);
  }

  /** {@link #takeIfChanged(KvEngine)} that gives up as {@link #take(KvEngine, BooleanSupplier)}. */
  public Optional<Snapshot> takeIfChanged(KvEngine source, BooleanSupplier stopRequested) {
    return source.committedVersion() == lastVersion ? Optional.empty()
        : take(source, stopRequested);
  }

  /**
   * Copies the source's current state: one commit holding what changed since the last copy.
   *
   * @return the copy, or empty if neither the entries nor the version changed
   * @throws KvException if the source's version is below the last copy's: another database
   */
  public Optional<Snapshot> take(KvEngine source) {
    return take(source, () -> false);
  }

  /**
   * {@link #take(KvEngine)} that gives up once {@code stopRequested} answers true, which it
   * asks before each entry: a first copy of a large database takes minutes, and a service
   * manager stopping the backup waits seconds (docs/backup.md §2).
   *
   * @throws CancellationException if it gave up; the backup is then as it was, byte for byte
   */
  public Optional<Snapshot> take(KvEngine source, BooleanSupplier stopRequested) {
    long readAt = System.currentTimeMillis();
    long before = blocks.committedBytes();
    refuseIfBehind(source.committedVersion()); // before writing what the dump holds
    // The source's entries go into the backup's transaction as they are read, so that a copy
    // of a large database holds its keys and versions, not its values (docs/backup.md §6).
    Changes changes = storage.write(tx -> {
      Changes found = new Changes(tx, stopRequested);
      long version = source.dump(found::accept);
      found.finish(version);
      refuseIfBehind(version);
      if (found.count > 0 || version != lastVersion) {
        tx.setVersion(version);
      }
      return found;
    }, readAt);
    if (changes.count == 0 && changes.version == lastVersion) {
      return Optional.empty();
    }
    copied = changes.kept;
    lastVersion = changes.version;
    return Optional.of(new Snapshot(lastVersion, copied.count(), changes.count,
        blocks.committedBytes() - before, storage.headCid(), storage.head().time()));
  }

  private void refuseIfBehind(long sourceVersion) {
    if (sourceVersion < lastVersion) {
      throw new KvException("the source is at version " + sourceVersion + ", below the"
          + " backup's " + lastVersion + ": it is not the database this backup follows; back it"
          + " up into a new directory");
    }
  }

  /**
   * The state the last copy left, as a copy that changed nothing ({@code changed} and
   * {@code bytes} 0), dated by when that copy read it; empty before the first copy.
   */
  public Optional<Snapshot> last() {
    Cid head = blocks.lastCommit();
    return head == null ? Optional.empty()
        : Optional.of(new Snapshot(lastVersion, copied.count(), 0, 0, head,
            storage.head().time()));
  }

  /** The commit the backup ends at, or null before its first copy. */
  public Cid head() {
    return blocks.lastCommit();
  }

  @Override
  public void close() {
    blocks.close();
  }

  /**
   * Merges the source's entries (ascending) with the last copied state into {@code tx}: what
   * was written is put, what was removed deleted; it keeps the new state's keys and versions.
   * An entry whose version is unchanged is unchanged: every change to a value or expiry gives
   * it a new versionstamp.
   */
  private final class Changes {
    private final Storage.Transaction tx;
    private final BooleanSupplier stopRequested;
    /** The new state's keys and versions. */
    final KeyVersions kept = new KeyVersions();
    /** Entries written or removed. */
    long count;
    long version;
    private final KeyVersions.Cursor old = copied.cursor(); // at the last copy's next key

    Changes(Storage.Transaction tx, BooleanSupplier stopRequested) {
      this.tx = tx;
      this.stopRequested = stopRequested;
    }

    void accept(StoredEntry e) {
      StopRequests.check(stopRequested, "copy");
      byte[] key = e.key().bytes();
      int c = 1;
      while (!old.atEnd() && (c = old.compareTo(key)) < 0) {
        removeOld();
      }
      long entryVersion = e.versionstamp().version();
      boolean same = !old.atEnd() && c == 0;
      if (!same || old.version() != entryVersion) {
        tx.put(new Storage.Row(e.key(), e.value(), Restore.version(e), e.expireAtMs()));
        count++;
      }
      if (same) {
        old.advance();
      }
      kept.add(key, entryVersion);
    }

    void finish(long sourceVersion) {
      while (!old.atEnd()) {
        removeOld();
      }
      version = sourceVersion;
    }

    private void removeOld() {
      StopRequests.check(stopRequested, "copy");
      tx.delete(RawKey.wrap(old.key()));
      old.advance();
      count++;
    }
  }
}
