package dev.kvasir.engine;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.EncodedValue;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The storage primitives from which {@link RulebookEngine} makes a complete engine: ordered rows,
 * a version counter, idempotency records and the two queue tables, read in snapshots and changed
 * in serial transactions. It knows none of Deno's rules: expiry, checks, versionstamps, sums and
 * queue retries are the rulebook's (docs/architecture.md, "Adding an engine").
 */
public interface Storage extends AutoCloseable {
  /** A stored row; {@code expireAtMs} is {@link Expiry#NEVER} or epoch milliseconds. */
  record Row(RawKey key, EncodedValue value, long version, long expireAtMs) {
    /** The row as a lossless copy holds it. */
    public StoredEntry stored() {
      return new StoredEntry(key, value, Versionstamp.ofVersion(version), expireAtMs);
    }
  }

  /** A running queue message and when its lease ends. */
  record Lease(QueuedMessage message, long untilMs) {}

  /** What one read sees: a consistent state, expired rows included. */
  interface Snapshot {
    /** The rows with keys in {@code [start, end)}, ascending, or descending if {@code reverse}. */
    Iterator<Row> scan(RawKey start, RawKey end, boolean reverse);

    /** The row at {@code key}, or null. */
    Row row(RawKey key);

    /** The keys of the rows with an expiry at or before {@code atMs}. */
    List<RawKey> expiringBy(long atMs);

    /** The earliest expiry of any row, or {@code Long.MAX_VALUE} if none expires. */
    long earliestExpiry();

    /** The database version: the version of the last commit. */
    long version();

    /** Every waiting message. */
    List<QueuedMessage> allWaiting();

    /** Every running message. */
    List<Lease> allRunning();
  }

  /** One write transaction: what it changes is visible together, after it returns. */
  interface Transaction extends Snapshot {
    void put(Row row);

    void delete(RawKey key);

    void setVersion(long version);

    /** The version recorded for idempotency key {@code id}, or −1. */
    long commitVersion(String id);

    void recordCommit(String id, long version, long atMs);

    /** Forgets idempotency records made before {@code atMs}. */
    void forgetCommitsBefore(long atMs);

    /** Adds a waiting message. */
    void addWaiting(QueuedMessage message);

    /** The waiting message due first (ties: the first added), or null. */
    QueuedMessage firstWaiting();

    void removeWaiting(String id);

    /** Adds or replaces a running message. */
    void putRunning(Lease lease);

    /** The running message {@code id}, or null. */
    Lease running(String id);

    void removeRunning(String id);
  }

  /** Runs {@code work} on one consistent snapshot; reads may run in parallel. */
  <T> T read(Function<Snapshot, T> work);

  /**
   * Runs {@code work} in one write transaction, one at a time. If {@code work} throws, nothing it
   * did is kept.
   */
  <T> T write(Function<Transaction, T> work);

  /**
   * Why the storage can no longer serve as opened, if it knows: {@link
   * dev.kvasir.spi.KvEngine#storageProblem}.
   */
  default Optional<String> problem() {
    return Optional.empty();
  }

  /** Releases the storage; nothing is called afterwards. */
  @Override
  void close();
}
