package dev.kvasir.sqlite;

import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.ReadRange;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A pool of read-only connections. In WAL mode each read transaction sees one committed state,
 * so all ranges of one snapshot read come from the same snapshot, and readers never wait for
 * the writer. A connection keeps its transaction between reads while nothing is committed
 * ({@link SnapshotReader}). An idle one ends it once this JVM commits, or after {@link
 * #HOLD_IDLE_MS} (another process's commit), so that checkpoints need not wait for it
 * (docs/sqlite.md §9).
 */
final class Readers implements AutoCloseable {
  /** How long an idle connection may keep its transaction. */
  static final long HOLD_IDLE_MS = 100;

  private final BlockingQueue<SnapshotReader> idle;
  private final List<SnapshotReader> all;
  private final Duration busyTimeout;
  private final SqliteMeters meters;
  private final AtomicInteger holders = new AtomicInteger();
  private final AtomicBoolean releaseScheduled = new AtomicBoolean();
  private final ScheduledExecutorService timer;
  /** What became of the file if its path no longer names it: the reason reads then fail. */
  private final Supplier<Optional<String>> fileChange;
  private final Damage damage;
  private volatile boolean closed;

  /**
   * Readers on {@code connections}; with a {@code header}, they keep their transactions between
   * reads, and {@code timer} ends those of idle connections.
   */
  Readers(List<Tx> connections, WalIndexHeader header, Duration busyTimeout,
      SqliteMeters meters, ScheduledExecutorService timer,
      Supplier<Optional<String>> fileChange, Damage damage) {
    List<SnapshotReader> readers = new ArrayList<>();
    for (Tx tx : connections) {
      readers.add(new SnapshotReader(tx, header, holders));
    }
    this.all = List.copyOf(readers);
    this.idle = new ArrayBlockingQueue<>(readers.size(), false, readers);
    this.busyTimeout = busyTimeout;
    this.meters = meters;
    this.timer = timer;
    this.fileChange = fileChange;
    this.damage = damage;
  }

  /** Runs {@code work} in a read transaction on an idle connection. */
  <T> T run(Writer.Task<T> work) {
    return run(work, true);
  }

  /**
   * Runs {@code work} on an idle connection; without {@code transaction} a statement may be its
   * own read transaction, which is enough for work of one statement and saves two round trips
   * into SQLite.
   */
  <T> T run(Writer.Task<T> work, boolean transaction) {
    SnapshotReader reader;
    try {
      reader = idle.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted while waiting for a reader connection", e);
    }
    try {
      if (closed) {
        throw new KvClosedException();
      }
      Busy busy = null;
      while (true) {
        try {
          return reader.read(work, transaction);
        } catch (SQLException e) {
          busy = busy != null ? busy : new Busy(busyTimeout, "read", meters);
          busy.backOff(e);
        }
      }
    } catch (SQLException e) {
      // The driver finalizes a statement after some errors; the next read prepares it afresh.
      reader.abandon();
      if (StorageFault.is(e)) {
        // SQLite fails reads of a file whose path was deleted (docs/sqlite.md §10).
        throw new KvUnavailableException(fileChange.get()
            .map(change -> "read failed: " + change + "; reopen the database")
            .orElse("read failed: the storage failed (" + e.getMessage()
                + "); retry once the cause is gone"), false, e);
      }
      throw damage.of(e).orElseGet(() -> new KvException("read failed: " + e.getMessage(), e));
    } finally {
      idle.add(reader);
      if (holders.get() > 0) {
        scheduleRelease();
      }
    }
  }

  /** Makes sure that a release of idle transactions is due; one at a time. */
  private void scheduleRelease() {
    if (!releaseScheduled.get() && releaseScheduled.compareAndSet(false, true)) {
      try {
        timer.schedule(this::releaseIdle, HOLD_IDLE_MS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // the engine is closing, and closing ends every transaction
      }
    }
  }

  /**
   * A commit of this JVM made every held snapshot stale: the idle connections let go of theirs
   * at once, rather than keep the log from being checkpointed and started over until they are
   * read again. Runs on the thread that committed, after the commit's callers have their answer.
   */
  void committed() {
    if (holders.get() > 0) {
      releaseIdleFor(0);
    }
  }

  /**
   * Ends the transactions of connections idle for {@link #HOLD_IDLE_MS}, then, while any
   * connection still holds one, schedules the next look.
   */
  private void releaseIdle() {
    releaseScheduled.set(false); // before counting holders: a new one schedules for itself
    releaseIdleFor(TimeUnit.MILLISECONDS.toNanos(HOLD_IDLE_MS));
    if (holders.get() > 0 && !closed) {
      scheduleRelease();
    }
  }

  /** Ends the transactions of the connections not in use that no read used for {@code nanos}. */
  private void releaseIdleFor(long nanos) {
    long idleSince = System.nanoTime() - nanos;
    for (int i = idle.size(); i > 0 && !closed; i--) {
      SnapshotReader reader = idle.poll();
      if (reader == null) {
        break;
      }
      try {
        if (reader.heldIdleSince(idleSince)) {
          reader.release();
        }
      } catch (SQLException e) {
        reader.abandon();
      } finally {
        idle.add(reader);
      }
    }
  }

  /**
   * Reads the ranges on a connection already in a transaction. A range of one key (a get) is
   * an equality lookup, which SQLite answers with one index seek and no sort or limit.
   */
  static List<List<RawEntry>> read(Tx tx, List<ReadRange> ranges, long now) throws SQLException {
    List<List<RawEntry>> out = new ArrayList<>(ranges.size());
    for (ReadRange range : ranges) {
      out.add(range.isOneKey() ? DirectRows.one(tx.prepare(Sql.GET_VALUE), range.start(), now)
          : DirectRows.range(tx.prepare(range.reverse() ? Sql.RANGE_DESC : Sql.RANGE_ASC), range,
              now));
    }
    return out;
  }

  @Override
  public void close() {
    closed = true;
    // A connection in use is closed when its read returns it; wait for each.
    for (int i = 0; i < all.size(); i++) {
      try {
        idle.take().tx.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
