package dev.kvasir.sqlite;

import dev.kvasir.engine.QueueRules;
import dev.kvasir.engine.QueueStore;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.engine.Signal;
import dev.kvasir.jdbc.QueueRows;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * The queue primitives on denokv's {@code queue} and {@code queue_running} tables (docs/queues.md
 * §2), for the rulebook's {@link dev.kvasir.engine.LeasedQueue}. Whether a message is due is
 * read on a reader connection, so idle listeners cost the writer nothing; only a take writes.
 * Listeners wake through {@link Shared}, which hears of commits of other processes too.
 */
final class SqliteQueue implements QueueStore {
  private final SqliteEngine engine;
  private final Writer writer;
  private final Shared shared;

  SqliteQueue(SqliteEngine engine, Writer writer, Shared shared) {
    this.engine = engine;
    this.writer = writer;
    this.shared = shared;
  }

  @Override
  public Take take(long nowMs, long leaseUntilMs) {
    long earliest = engine.read(SqliteQueue::earliest);
    if (earliest > nowMs) {
      return new Take(null, earliest);
    }
    QueuedMessage taken = writer.execute(tx -> take(tx, nowMs, leaseUntilMs));
    return new Take(taken, nowMs); // none: another listener was quicker; look again
  }

  private static long earliest(Tx tx) throws SQLException {
    try (ResultSet r = tx.prepare(Sql.QUEUE_EARLIEST).executeQuery()) {
      return r.next() ? r.getLong(1) : Long.MAX_VALUE;
    }
  }

  /** Moves the first due message to queue_running, or returns null if none is due. */
  private static QueuedMessage take(Tx tx, long nowMs, long leaseUntilMs) throws SQLException {
    PreparedStatement next = tx.prepare(Sql.QUEUE_NEXT_READY);
    next.setLong(1, nowMs);
    QueuedMessage m;
    try (ResultSet r = next.executeQuery()) {
      if (!r.next()) {
        return null;
      }
      m = QueueRows.message(r);
    }
    PreparedStatement remove = tx.prepare(Sql.QUEUE_REMOVE);
    remove.setString(1, m.id());
    remove.executeUpdate();
    PreparedStatement add = tx.prepare(Sql.RUNNING_ADD);
    QueueRows.bind(add, leaseUntilMs, m);
    add.executeUpdate();
    return m;
  }

  @Override
  public void succeeded(String id) {
    writer.execute(tx -> {
      PreparedStatement remove = tx.prepare(Sql.RUNNING_REMOVE);
      remove.setString(1, id);
      return remove.executeUpdate();
    });
  }

  @Override
  public void failed(String id, long leaseEndedBeforeMs) {
    writer.execute(tx -> {
      QueueRules.failed(tx, id, leaseEndedBeforeMs, System.currentTimeMillis(),
          shared.queue::raise, shared.notifier::changed);
      return null;
    });
  }

  @Override
  public void released(String id) {
    writer.execute(tx -> {
      QueueRules.released(tx, id, System.currentTimeMillis(), shared.queue::raise);
      return null;
    });
  }

  /** One batch of updates: the listeners of a busy process hold many messages. */
  @Override
  public void renew(Collection<String> ids, long untilMs) {
    writer.execute(tx -> {
      PreparedStatement p = tx.prepare(Sql.RUNNING_EXTEND);
      for (String id : ids) {
        p.setLong(1, untilMs);
        p.setString(2, id);
        p.addBatch();
      }
      return p.executeBatch();
    });
  }

  @Override
  public List<String> expiredLeases(long nowMs) {
    return engine.read(tx -> QueueRows.ids(tx.prepare(Sql.RUNNING_PAST_DEADLINE), nowMs));
  }

  @Override
  public Stats stats(long nowMs) {
    return engine.read(tx -> QueueRows.stats(tx.prepare(Sql.QUEUE_STATS), nowMs));
  }

  @Override
  public Signal signal() {
    return shared.queue;
  }

  @Override
  public boolean isClosed() {
    return engine.isClosed();
  }
}
