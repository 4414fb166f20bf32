package dev.kvasir.sqlite;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reader connection that keeps its read transaction open from one read to the next for as
 * long as nothing is committed to the file. Starting and ending a read transaction is what a
 * read of a few rows costs most in SQLite (locks on the shared memory, each a system call);
 * a held snapshot that is still the newest one answers every later read just as well
 * (docs/sqlite.md §9). Used by one thread at a time.
 */
final class SnapshotReader {
  final Tx tx;
  /** Null where the header cannot be read: then every read has a transaction of its own. */
  private final WalIndexHeader header;
  /** The header as the last read found it, read before that read's snapshot began. */
  private final long[] seen = new long[WalIndexHeader.LONGS];
  private final long[] now = new long[WalIndexHeader.LONGS];
  /** How many readers of the pool hold a transaction. */
  private final AtomicInteger holders;
  private boolean holding;
  private long lastRead;

  SnapshotReader(Tx tx, WalIndexHeader header, AtomicInteger holders) {
    this.tx = tx;
    this.header = header;
    this.holders = holders;
  }

  /**
   * Runs {@code work}, in the held transaction if nothing was committed since it began.
   * Otherwise the held one ends first. Then, if nothing was committed since the read before
   * either, the work starts a transaction that stays open; after a commit it has a transaction
   * of its own (one statement without {@code transaction}), so that a file written as often as
   * it is read pays nothing for holding.
   */
  <T> T read(Writer.Task<T> work, boolean transaction) throws SQLException {
    if (header == null) {
      return readAlone(work, transaction);
    }
    // Read before the snapshot begins: a commit in between makes the next read start afresh,
    // never a snapshot older than the header says.
    header.read(now);
    boolean unchanged = Arrays.equals(now, seen);
    if (!(holding && unchanged)) {
      release();
      System.arraycopy(now, 0, seen, 0, now.length);
      if (!unchanged) {
        return readAlone(work, transaction);
      }
      tx.execute("begin");
      holding = true;
      holders.incrementAndGet();
    }
    lastRead = System.nanoTime();
    return work.run(tx);
  }

  /**
   * Runs {@code work} without holding: in a transaction of its own, or without {@code
   * transaction} as statements that are each their own.
   */
  private <T> T readAlone(Writer.Task<T> work, boolean transaction) throws SQLException {
    if (!transaction) {
      return work.run(tx);
    }
    tx.execute("begin");
    try {
      T out = work.run(tx);
      tx.execute("commit");
      return out;
    } catch (SQLException | RuntimeException e) {
      try {
        tx.execute("rollback");
      } catch (SQLException ignored) {
        // nothing to roll back
      }
      throw e;
    }
  }

  /** Whether a transaction is held and no read used it since {@code nanoTime}. */
  boolean heldIdleSince(long nanoTime) {
    return holding && lastRead - nanoTime <= 0;
  }

  /** Ends the held transaction, if there is one. */
  void release() throws SQLException {
    if (holding) {
      holding = false;
      holders.decrementAndGet();
      tx.execute("commit");
    }
  }

  /** The connection was rolled back after a failure: no transaction is held any more. */
  void abandon() {
    if (holding) {
      holding = false;
      holders.decrementAndGet();
    }
    tx.abandon();
  }
}
