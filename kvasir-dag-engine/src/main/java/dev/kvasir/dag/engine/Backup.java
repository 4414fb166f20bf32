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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * A continuous backup of any engine into a {@code dag:} directory (docs/backup.md): each
 * {@link #take} copies the source's current state as one commit of the backup, storing only the
 * entry blocks and pail shards that changed, and dates it by when it was read, so the backup
 * opened {@code ?at=TIME} is the source as it was at that time.
 *
 * <p>It keeps each backed-up key's version in memory (about 60 bytes per key) to find what
 * changed without reading the backup. One thread at a time.
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
  private byte[][] keys;
  private long[] versions;
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
    List<byte[]> k = new ArrayList<>();
    List<Long> v = new ArrayList<>();
    if (blocks.lastCommit() != null) {
      lastVersion = storage.read(snapshot -> {
        Iterator<Storage.Row> rows = snapshot.scan(RawKey.BELOW_ALL, RawKey.ABOVE_ALL, false);
        rows.forEachRemaining(row -> {
          k.add(row.key().bytes());
          v.add(row.version());
        });
        return snapshot.version();
      });
    }
    keys = k.toArray(new byte[0][]);
    versions = v.stream().mapToLong(Long::longValue).toArray();
  }

  /** Copies the source's state if its version moved since the last copy (a cheap look). */
  public Optional<Snapshot> takeIfChanged(KvEngine source) {
    return source.committedVersion() == lastVersion ? Optional.empty() : take(source);
  }

  /**
   * Copies the source's current state: one commit holding what changed since the last copy.
   *
   * @return the copy, or empty if neither the entries nor the version changed
   * @throws KvException if the source's version is below the last copy's: another database
   */
  public Optional<Snapshot> take(KvEngine source) {
    long readAt = System.currentTimeMillis();
    long before = blocks.committedBytes();
    refuseIfBehind(source.committedVersion()); // before writing what the dump holds
    // The source's entries go into the backup's transaction as they are read, so that a copy
    // of a large database holds its keys and versions, not its values (docs/backup.md §6).
    Changes changes = storage.write(tx -> {
      Changes found = new Changes(tx);
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
    keys = changes.keys.toArray(new byte[0][]);
    versions = Arrays.copyOf(changes.versions, changes.size);
    lastVersion = changes.version;
    return Optional.of(new Snapshot(lastVersion, keys.length, changes.count,
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
        : Optional.of(new Snapshot(lastVersion, keys.length, 0, 0, head, storage.head().time()));
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
    final List<byte[]> keys = new ArrayList<>();
    long[] versions = new long[Math.max(16, Backup.this.versions.length)];
    int size;
    /** Entries written or removed. */
    long count;
    long version;
    private int old; // the next key of the last copy to compare

    Changes(Storage.Transaction tx) {
      this.tx = tx;
    }

    void accept(StoredEntry e) {
      byte[] key = e.key().bytes();
      int c = 1;
      while (old < Backup.this.keys.length
          && (c = Arrays.compareUnsigned(Backup.this.keys[old], key)) < 0) {
        remove(Backup.this.keys[old++]);
      }
      long entryVersion = e.versionstamp().version();
      boolean same = old < Backup.this.keys.length && c == 0;
      if (!same || Backup.this.versions[old] != entryVersion) {
        tx.put(new Storage.Row(e.key(), e.value(), Restore.version(e), e.expireAtMs()));
        count++;
      }
      if (same) {
        old++;
      }
      add(key, entryVersion);
    }

    void finish(long sourceVersion) {
      while (old < Backup.this.keys.length) {
        remove(Backup.this.keys[old++]);
      }
      version = sourceVersion;
    }

    private void remove(byte[] key) {
      tx.delete(RawKey.wrap(key));
      count++;
    }

    private void add(byte[] key, long entryVersion) {
      if (size == versions.length) {
        versions = Arrays.copyOf(versions, size * 2);
      }
      keys.add(key);
      versions[size++] = entryVersion;
    }
  }
}
