package dev.kvasir.spi;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.MeterSink;
import dev.kvasir.base.Versionstamp;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The one seam every storage engine implements, at the byte level: keys are {@link RawKey}s,
 * values {@link dev.kvasir.value.EncodedValue}s. {@code Kv} does typing, limits,
 * list paging and cursors before an engine is called, so an engine may assume well-formed
 * arguments within Deno's limits (remote servers check them again).
 *
 * <p>Every method is thread-safe. After {@link #close()}, every method but {@code close} throws
 * {@link dev.kvasir.base.KvClosedException}, and blocked calls return {@code null}.
 */
public interface KvEngine extends AutoCloseable {
  /**
   * Reads every range from one consistent snapshot. Expired entries are never returned.
   *
   * @return one list of entries per range, in range order, each ordered as the range asks
   */
  List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency);

  /**
   * Applies a write all-or-nothing: if every check holds, the commit gets a new versionstamp
   * greater than any before it (docs/sqlite.md §4), every mutation applies in order
   * under it, and the messages are enqueued.
   *
   * @return the commit's versionstamp, or empty if a check failed (then nothing changed)
   * @throws dev.kvasir.base.KvTypeException if a sum, min or max meets a value of the wrong type;
   *     nothing changed
   */
  Optional<Versionstamp> atomicWrite(AtomicWrite write);

  /**
   * {@link #snapshotRead} without waiting for the answer, for {@code Kv.async()}. The future
   * may complete on a thread of the engine's, so callers hand their own work to an executor of
   * theirs. By default the read runs at once on the caller's thread (right for an engine that
   * never blocks, such as the memory engine); engines that wait for a disk or a network answer
   * on their own threads or connections instead (docs/architecture.md, "Adding an engine").
   */
  default CompletableFuture<List<List<RawEntry>>> snapshotReadAsync(List<ReadRange> ranges,
      Consistency consistency) {
    try {
      return CompletableFuture.completedFuture(snapshotRead(ranges, consistency));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@link #atomicWrite} without waiting; see {@link #snapshotReadAsync}. */
  default CompletableFuture<Optional<Versionstamp>> atomicWriteAsync(AtomicWrite write) {
    try {
      return CompletableFuture.completedFuture(atomicWrite(write));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Whether a snapshot read of a few entries costs only microseconds of the caller's thread: it
   * reads this process's memory or local files and waits for no network and no commit. A server
   * then reads on the thread that received the request instead of handing it to another
   * (docs/kv-connect.md §13). False by default: callers assume a read may wait.
   */
  default boolean readsWithoutWaiting() {
    return false;
  }

  /**
   * Whether {@link #atomicWriteAsync} returns without waiting for storage or a network: it hands
   * the write to a thread of the engine's, or applies it in memory. A server then commits from
   * the thread that received the request (docs/kv-connect.md §13). False by default.
   */
  default boolean writesWithoutWaiting() {
    return false;
  }

  /**
   * Waits up to {@code timeout} for the next due queue message and marks it running. The
   * caller must {@link DequeuedMessage#finish(boolean) finish} it. A wait that runs out takes
   * nothing; a caller that may have to stop sooner waits in rounds (a queue listener) or gives
   * back what it no longer wants (a server whose client's poll ended) rather than interrupt a
   * take half-way.
   *
   * @return the message, or {@code null} if none was due within {@code timeout} or the engine
   *     is closed
   * @throws InterruptedException if interrupted while waiting; no message was taken
   */
  DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException;

  /** Watches exact keys; see {@link EngineWatch}. */
  EngineWatch watch(List<RawKey> keys);

  /**
   * Passes every entry that is live now to {@code sink}, ascending by key, from one snapshot,
   * with its versionstamp and expiry: what a lossless export, a backup and a fingerprint read
   * (docs/dag-keyspace.md §4).
   *
   * @return the snapshot's database version: the version of the newest commit it includes
   * @throws UnsupportedOperationException if the engine cannot (a remote database)
   */
  default long dump(Consumer<StoredEntry> sink) {
    throw new UnsupportedOperationException("this engine cannot list its entries with their"
        + " expiries; dump a local engine instead");
  }

  /**
   * The database version now: the version of the newest commit, whoever made it (on a shared
   * file or server, other processes too). It is cheap, so a backup asks it often to learn that
   * something changed (docs/backup.md §2).
   *
   * @throws UnsupportedOperationException if the engine cannot (a remote database)
   */
  default long committedVersion() {
    throw new UnsupportedOperationException("this engine cannot report its commit version;"
        + " back up a local engine instead");
  }

  /**
   * Why the engine can no longer serve as opened, or empty while it can: for a file, that its
   * path was deleted or names another file now, or that its pages were found damaged. Cheap (at
   * most a look at a file's metadata); the server's readiness probe asks it, and answers the
   * requests that failed meanwhile with it (docs/operations.md §1).
   */
  default Optional<String> storageProblem() {
    return Optional.empty();
  }

  /**
   * The queue's size now, read from storage; empty for an engine that cannot tell (a KV Connect
   * client).
   */
  default Optional<QueueDepth> queueDepth() {
    return Optional.empty();
  }

  /**
   * Stores {@code entries} as they are, versionstamps and expiries included, in one
   * transaction, and moves the database version up to the highest versionstamp among them if
   * it is lower, so that the next commit is above every one of them (docs/dag-keyspace.md §4).
   * For restoring into an empty database: it checks nothing and notifies no watcher. The
   * entries are read as they are stored, so a restore need not hold them all; an engine that
   * retries the transaction reads them again from the start.
   *
   * @throws dev.kvasir.base.KvArgumentException if a versionstamp's last two bytes are not zero
   *     (this engine keeps eight-byte versions, as Deno's SQLite backend)
   * @throws UnsupportedOperationException if the engine cannot (a remote database)
   */
  default void load(Iterable<StoredEntry> entries) {
    throw new UnsupportedOperationException("this engine cannot store entries with their own"
        + " versionstamps; load into a local engine instead");
  }

  /**
   * Reports what the engine measures to {@code sink} from now on (docs/operations.md §5): its
   * group commits, expiry sweeps, queue depth and storage. Several sinks may be bound; an
   * engine that measures nothing ignores them.
   */
  default void bindMeters(MeterSink sink) {}

  /** Releases everything; idempotent. Blocked waits end with {@code null}. */
  @Override
  void close();
}
