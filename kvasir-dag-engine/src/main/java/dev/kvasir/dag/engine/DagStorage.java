package dev.kvasir.dag.engine;

import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.Pail;
import dev.kvasir.dag.PailEntry;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.OpenedFile;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.engine.Storage;
import dev.kvasir.spi.RawKey;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@link Storage} on a {@link BlockLog} (docs/dag-engine.md): the database state is two
 * canonical pails, the keyspace and the bookkeeping (expiry index, queue, idempotency records),
 * and every write transaction that changes anything appends a {@link CommitRecord} naming the
 * new roots. Reads take the newest record; a database opened at a past commit only reads.
 */
final class DagStorage implements Storage {
  private final BlockLog blocks;
  /** Set under the lock of writes, once the write in progress is done; read by reads too. */
  private volatile boolean closed;
  private final CanonicalPail pail;
  private final Pail reader;
  private final boolean readOnly;
  private volatile State current;

  /** A published state: the record and its CID (null before the first commit). */
  private record State(CommitRecord record, Cid cid) {
    /** The state the commit {@code cid} of {@code blocks} records. */
    static State at(BlockLog blocks, Cid cid) {
      return new State(CommitRecord.of(blocks.require(cid)), cid);
    }
  }

  private DagStorage(BlockLog blocks, State state, boolean readOnly) {
    this.blocks = blocks;
    this.pail = CanonicalPail.open(blocks);
    this.reader = pail.reader();
    this.readOnly = readOnly;
    this.current = state;
  }

  /** The newest state of {@code blocks}, for reading and writing. */
  static DagStorage open(BlockLog blocks) {
    Cid last = blocks.lastCommit();
    if (last != null) {
      return new DagStorage(blocks, State.at(blocks, last), false);
    }
    DagStorage storage = new DagStorage(blocks, null, false);
    Cid empty = storage.pail.build(new TreeMap<>());
    CommitRecord first = new CommitRecord(0, System.currentTimeMillis(), empty, empty, 0, null);
    storage.publish(first);
    return storage;
  }

  /**
   * The newest state of {@code blocks} for a copy of another database (docs/backup.md §1): a
   * new log gets no empty first commit, so its first commit is the first state copied.
   */
  static DagStorage openForCopies(BlockLog blocks) {
    Cid last = blocks.lastCommit();
    return new DagStorage(blocks, last == null ? null : State.at(blocks, last), false);
  }

  /** The state after commit {@code commit}, read-only. */
  static DagStorage at(BlockLog blocks, Cid commit) {
    return new DagStorage(blocks, State.at(blocks, commit), true);
  }

  /**
   * For a read-only storage that reads the newest state: moves to the newest commit in the log,
   * if another process appended one (docs/dag-engine.md §4).
   *
   * @return whether the state moved
   */
  boolean follow() {
    if (!blocks.refresh()) {
      return false;
    }
    current = State.at(blocks, blocks.lastCommit());
    return true;
  }

  /** The newest commit record and its CID. */
  CommitRecord head() {
    return current.record();
  }

  Cid headCid() {
    return current.cid();
  }

  /** Reads without the lock of writes; one that the log's closing broke says closed. */
  @Override
  public <T> T read(Function<Snapshot, T> work) {
    try {
      return work.apply(new Tx(current.record()));
    } catch (RuntimeException e) {
      if (closed) {
        throw new KvClosedException();
      }
      throw e;
    }
  }

  @Override
  public <T> T write(Function<Transaction, T> work) {
    return write(work, System.currentTimeMillis());
  }

  /**
   * {@link #write} whose commit record says it was made at {@code timeMs} (or at the previous
   * commit's time, if that is later): a backup dates a state by when it read it.
   */
  synchronized <T> T write(Function<Transaction, T> work, long timeMs) {
    if (closed) { // closed while this write waited for the one before it
      throw new KvClosedException();
    }
    if (readOnly) {
      throw new KvException("this KV/DAG database is open for reading only (a past state, or"
          + " the newest state of a log another process writes)");
    }
    Optional<String> moved = blocks.fileChange();
    if (moved.isPresent()) {
      throw OpenedFile.commitRefused(moved.get());
    }
    State base = current != null ? current : emptyState();
    Tx tx = new Tx(base.record());
    try {
      T result = work.apply(tx);
      if (tx.changed()) {
        publish(tx.toRecord(base.record(), base.cid(), timeMs));
      } else {
        blocks.discard();
      }
      return result;
    } catch (RuntimeException | Error e) {
      blocks.discard();
      throw e;
    }
  }

  /** What a log without commits holds: nothing, at version 0 (its blocks only staged). */
  private State emptyState() {
    Cid empty = pail.build(new TreeMap<>());
    return new State(new CommitRecord(0, 0, empty, empty, 0, null), null);
  }

  private void publish(CommitRecord record) {
    Block block = record.toBlock();
    blocks.put(block);
    blocks.commit(block.cid());
    current = new State(record, block.cid());
  }

  @Override
  public Optional<String> problem() {
    return blocks.problem();
  }

  /** Closes the log once the write in progress, if any, has committed or failed. */
  @Override
  public synchronized void close() {
    closed = true;
    blocks.close();
  }

  /** One read or write transaction over the pails of one commit record. */
  private final class Tx implements Transaction {
    private final PailView keyspace;
    private final PailView meta;
    private long version;
    private long sequence;
    private boolean changed;

    Tx(CommitRecord record) {
      this.keyspace = new PailView(pail, reader, record.keyspace());
      this.meta = new PailView(pail, reader, record.meta());
      this.version = record.version();
      this.sequence = record.sequence();
    }

    boolean changed() {
      return changed;
    }

    CommitRecord toRecord(CommitRecord previous, Cid previousCid, long timeMs) {
      return new CommitRecord(version, Math.max(timeMs, previous.timeMs()),
          keyspace.commit(), meta.commit(), sequence, previousCid);
    }

    @Override
    public Iterator<Row> scan(RawKey start, RawKey end, boolean reverse) {
      Iterator<PailEntry> entries = keyspace.range(Keyspace.pailKey(start),
          Keyspace.pailKey(end), reverse);
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return entries.hasNext();
        }

        @Override
        public Row next() {
          PailEntry e = entries.next();
          return Keyspace.row(Keyspace.rawKey(e.key()), blocks.require(e.value()));
        }
      };
    }

    @Override
    public Row row(RawKey key) {
      Cid cid = keyspace.get(Keyspace.pailKey(key));
      return cid == null ? null : Keyspace.row(key, blocks.require(cid));
    }

    @Override
    public List<RawKey> expiringBy(long atMs) {
      List<RawKey> keys = new ArrayList<>();
      Iterator<PailEntry> it = meta.range(MetaRecords.EXPIRY,
          MetaRecords.EXPIRY + MetaRecords.hex16(atMs + 1), false);
      it.forEachRemaining(e -> keys.add(Keyspace.rawKey(e.key().substring(17))));
      return keys;
    }

    @Override
    public long earliestExpiry() {
      if (readOnly) {
        return Long.MAX_VALUE; // a past state is never swept: nothing schedules a sweep
      }
      Iterator<PailEntry> it = meta.prefixed(MetaRecords.EXPIRY);
      return it.hasNext() ? MetaRecords.parseHex16(it.next().key(), 1) : Long.MAX_VALUE;
    }

    @Override
    public void put(Row row) {
      String key = Keyspace.pailKey(row.key());
      unindexExpiry(key, keyspace.get(key));
      Block entry = Keyspace.entryBlock(row.value(), row.version(), row.expireAtMs());
      blocks.put(entry);
      keyspace.put(key, entry.cid());
      if (row.expireAtMs() != Expiry.NEVER) {
        meta.put(expiryKey(row.expireAtMs(), key), entry.cid());
      }
      changed = true;
    }

    @Override
    public void delete(RawKey key) {
      String pailKey = Keyspace.pailKey(key);
      Cid old = keyspace.get(pailKey);
      if (old != null) {
        unindexExpiry(pailKey, old);
        keyspace.remove(pailKey);
        changed = true;
      }
    }

    /** Removes the expiry index entry of the entry block {@code old} (null: none) at a key. */
    private void unindexExpiry(String pailKey, Cid old) {
      if (old != null) {
        Row row = Keyspace.row(Keyspace.rawKey(pailKey), blocks.require(old));
        if (row.expireAtMs() != Expiry.NEVER) {
          meta.remove(expiryKey(row.expireAtMs(), pailKey));
        }
      }
    }

    private static String expiryKey(long atMs, String pailKey) {
      return MetaRecords.EXPIRY + MetaRecords.hex16(atMs) + pailKey;
    }

    @Override
    public long version() {
      return version;
    }

    @Override
    public void setVersion(long newVersion) {
      version = newVersion;
      changed = true;
    }

    @Override
    public long commitVersion(String id) {
      Cid cid = meta.get(MetaRecords.COMMIT + id);
      return cid == null ? -1 : MetaRecords.commitRecord(blocks.require(cid))[0];
    }

    @Override
    public void recordCommit(String id, long commitVersion, long atMs) {
      Block record = MetaRecords.commitRecord(commitVersion, atMs);
      blocks.put(record);
      meta.put(MetaRecords.COMMIT + id, record.cid());
      meta.put(MetaRecords.COMMIT_TIME + MetaRecords.hex16(atMs) + id, record.cid());
      changed = true;
    }

    @Override
    public void forgetCommitsBefore(long atMs) {
      List<String> old = new ArrayList<>();
      meta.range(MetaRecords.COMMIT_TIME, MetaRecords.COMMIT_TIME + MetaRecords.hex16(atMs),
          false).forEachRemaining(e -> old.add(e.key()));
      for (String key : old) {
        meta.remove(key);
        meta.remove(MetaRecords.COMMIT + key.substring(17));
        changed = true;
      }
    }

    @Override
    public void addWaiting(QueuedMessage message) {
      removeWaiting(message.id());
      Block block = MetaRecords.waiting(message, sequence);
      blocks.put(block);
      meta.put(MetaRecords.WAITING + message.id(), block.cid());
      meta.put(dueKey(message.dueMs(), sequence), block.cid());
      sequence++;
      changed = true;
    }

    private static String dueKey(long dueMs, long sequence) {
      return MetaRecords.DUE + MetaRecords.hex16(dueMs) + MetaRecords.hex16(sequence);
    }

    @Override
    public List<QueuedMessage> allWaiting() {
      List<QueuedMessage> out = new ArrayList<>();
      meta.prefixed(MetaRecords.WAITING).forEachRemaining(
          e -> out.add(MetaRecords.message(blocks.require(e.value()))));
      return out;
    }

    @Override
    public QueuedMessage firstWaiting() {
      Iterator<PailEntry> it = meta.prefixed(MetaRecords.DUE);
      return it.hasNext() ? MetaRecords.message(blocks.require(it.next().value())) : null;
    }

    @Override
    public void removeWaiting(String id) {
      Cid cid = meta.get(MetaRecords.WAITING + id);
      if (cid != null) {
        Block block = blocks.require(cid);
        meta.remove(MetaRecords.WAITING + id);
        meta.remove(dueKey(MetaRecords.message(block).dueMs(), MetaRecords.sequence(block)));
        changed = true;
      }
    }

    @Override
    public void putRunning(Lease lease) {
      Block block = MetaRecords.lease(lease);
      blocks.put(block);
      meta.put(MetaRecords.RUNNING + lease.message().id(), block.cid());
      changed = true;
    }

    @Override
    public Lease running(String id) {
      Cid cid = meta.get(MetaRecords.RUNNING + id);
      return cid == null ? null : MetaRecords.lease(blocks.require(cid));
    }

    @Override
    public void removeRunning(String id) {
      if (meta.get(MetaRecords.RUNNING + id) != null) {
        meta.remove(MetaRecords.RUNNING + id);
        changed = true;
      }
    }

    @Override
    public List<Lease> allRunning() {
      List<Lease> out = new ArrayList<>();
      meta.prefixed(MetaRecords.RUNNING).forEachRemaining(
          e -> out.add(MetaRecords.lease(blocks.require(e.value()))));
      return out;
    }
  }
}
