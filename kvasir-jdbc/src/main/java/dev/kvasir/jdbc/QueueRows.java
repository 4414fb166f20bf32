package dev.kvasir.jdbc;

import dev.kvasir.engine.QueueStore;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.ValueEncoding;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows of denokv's {@code queue} and {@code queue_running} tables (docs/queues.md §2): the
 * columns {@code ts} (or {@code deadline}), {@code id}, {@code data}, {@code backoff_schedule},
 * {@code keys_if_undelivered}, in that order, in statements and in results.
 */
public final class QueueRows {
  private QueueRows() {}

  /** Binds the five columns of a row, due (or leased) until {@code ts}. */
  public static void bind(PreparedStatement p, long ts, QueuedMessage m) throws SQLException {
    p.setLong(1, ts);
    p.setString(2, m.id());
    p.setBytes(3, m.payload().sharedBytes());
    p.setString(4, QueueJson.backoff(m.backoff()));
    p.setString(5, QueueJson.keys(m.keysIfUndelivered()));
  }

  /** The values {@link #bind} binds, for a statement assembled from parts. */
  public static Object[] values(long ts, QueuedMessage m) {
    return new Object[] {ts, m.id(), m.payload().sharedBytes(), QueueJson.backoff(m.backoff()),
        QueueJson.keys(m.keysIfUndelivered())};
  }

  /** The message in the current row of a result with the five columns. */
  public static QueuedMessage message(ResultSet r) throws SQLException {
    return new QueuedMessage(r.getString(2), r.getLong(1),
        EncodedValue.wrap(ValueEncoding.V8, r.getBytes(3)),
        QueueJson.parseBackoff(r.getString(4)), QueueJson.parseKeys(r.getString(5)));
  }

  /** Runs a query of ids with one time parameter, e.g. the running rows whose lease ended. */
  public static List<String> ids(PreparedStatement p, long ms) throws SQLException {
    p.setLong(1, ms);
    List<String> ids = new ArrayList<>();
    try (ResultSet r = p.executeQuery()) {
      while (r.next()) {
        ids.add(r.getString(1));
      }
    }
    return ids;
  }

  /**
   * The queue's size at {@code nowMs} by a statement that takes {@code nowMs} three times and
   * answers one row: due messages, later ones, running ones, and the oldest due time (null for
   * none).
   */
  public static QueueStore.Stats stats(PreparedStatement p, long nowMs) throws SQLException {
    p.setLong(1, nowMs);
    p.setLong(2, nowMs);
    p.setLong(3, nowMs);
    try (ResultSet r = p.executeQuery()) {
      r.next();
      long oldest = r.getLong(4);
      // wasNull speaks of the last column read: it must come before the others are.
      boolean noneDue = r.wasNull();
      return new QueueStore.Stats(r.getLong(1), r.getLong(2), r.getLong(3),
          noneDue ? Long.MAX_VALUE : oldest);
    }
  }
}
