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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A pool of read-only connections. In WAL mode each read transaction sees one committed state,
 * so all ranges of one snapshot read come from the same snapshot, and readers never wait for
 * the writer.
 */
final class Readers implements AutoCloseable {
  private final BlockingQueue<Tx> idle;
  private final List<Tx> all;
  private final Duration busyTimeout;
  private final SqliteMeters meters;
  private volatile boolean closed;

  Readers(List<Tx> connections, Duration busyTimeout, SqliteMeters meters) {
    this.all = List.copyOf(connections);
    this.idle = new ArrayBlockingQueue<>(connections.size(), false, connections);
    this.busyTimeout = busyTimeout;
    this.meters = meters;
  }

  /** Runs {@code work} in a read transaction on an idle connection. */
  <T> T run(Writer.Task<T> work) {
    return run(work, true);
  }

  /**
   * Runs {@code work} on an idle connection; without {@code transaction} each statement is its
   * own read transaction, which is enough for work of one statement and saves two round trips
   * into SQLite.
   */
  <T> T run(Writer.Task<T> work, boolean transaction) {
    Tx tx;
    try {
      tx = idle.take();
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
          return transaction ? runOnce(tx, work) : work.run(tx);
        } catch (SQLException e) {
          busy = busy != null ? busy : new Busy(busyTimeout, "read", meters);
          busy.backOff(e);
        }
      }
    } catch (SQLException e) {
      // The driver finalizes a statement after some errors; the next read prepares it afresh.
      tx.abandon();
      if (StorageFault.is(e)) {
        throw new KvUnavailableException("read failed: the storage failed (" + e.getMessage()
            + "); retry once the cause is gone", false, e);
      }
      throw new KvException("read failed: " + e.getMessage(), e);
    } finally {
      idle.add(tx);
    }
  }

  private static <T> T runOnce(Tx tx, Writer.Task<T> work) throws SQLException {
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
        idle.take().close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
