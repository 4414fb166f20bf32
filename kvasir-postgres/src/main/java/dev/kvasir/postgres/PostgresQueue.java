package dev.kvasir.postgres;

import dev.kvasir.engine.QueueRules;
import dev.kvasir.engine.QueueStore;
import dev.kvasir.engine.Signal;
import dev.kvasir.jdbc.QueueRows;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Collection;
import java.util.List;

/**
 * The queue primitives on the schema's {@code queue} and {@code queue_running} tables, shared
 * by every instance (docs/queues.md), for the rulebook's {@link dev.kvasir.engine.LeasedQueue}.
 * A take moves the first due message with {@code FOR UPDATE SKIP LOCKED}, so instances never
 * wait for each other nor take the same message; when an instance dies, its leases run out and
 * any instance puts those messages back as failed deliveries. Listeners wake on this instance's
 * enqueues and on other instances' notifications.
 */
final class PostgresQueue implements QueueStore {
  private final PostgresEngine engine;
  private final Database db;
  private final Writer writer;
  private final Sql sql;
  private final Signal signal = new Signal();

  PostgresQueue(PostgresEngine engine, Database db, Writer writer, Sql sql) {
    this.engine = engine;
    this.db = db;
    this.writer = writer;
    this.sql = sql;
  }

  /**
   * The server's clock: due times and leases are compared between instances, whose own clocks
   * may disagree (docs/postgres.md §11).
   */
  @Override
  public long nowMs() {
    return db.clock().nowMs();
  }

  /** Takes the first due message, or learns when the next one is due: one connection. */
  @Override
  public Take take(long nowMs, long leaseUntilMs) {
    return db.run("dequeue", c -> {
      try (PreparedStatement p = c.prepareStatement(sql.queueTake)) {
        p.setLong(1, nowMs);
        p.setLong(2, leaseUntilMs);
        try (ResultSet r = p.executeQuery()) {
          if (r.next()) {
            return new Take(QueueRows.message(r), nowMs);
          }
        }
      }
      try (PreparedStatement p = c.prepareStatement(sql.queueEarliest);
          ResultSet r = p.executeQuery()) {
        r.next();
        long ts = r.getLong(1);
        return new Take(null, r.wasNull() ? Long.MAX_VALUE : Math.max(ts, nowMs + 1));
      }
    });
  }

  @Override
  public void succeeded(String id) {
    db.run("finish a queue message", c -> {
      try (PreparedStatement p = c.prepareStatement(sql.runningRemove)) {
        p.setString(1, id);
        return p.executeUpdate();
      }
    });
  }

  @Override
  public void failed(String id, long leaseEndedBeforeMs) {
    writer.execute(tx -> {
      QueueRules.failed(tx, id, leaseEndedBeforeMs, nowMs(), signal::raise,
          engine::changedLocally);
      return null;
    });
  }

  @Override
  public void released(String id) {
    writer.execute(tx -> {
      QueueRules.released(tx, id, nowMs(), signal::raise);
      return null;
    });
  }

  @Override
  public void renew(Collection<String> ids, long untilMs) {
    String[] array = ids.toArray(new String[0]);
    db.run("renew queue leases", c -> {
      try (PreparedStatement p = c.prepareStatement(sql.runningExtend)) {
        p.setLong(1, untilMs);
        p.setArray(2, c.createArrayOf("text", array));
        return p.executeUpdate();
      }
    });
  }

  @Override
  public List<String> expiredLeases(long nowMs) {
    return db.run("look for expired queue leases", c -> {
      try (PreparedStatement p = c.prepareStatement(sql.runningPastDeadline)) {
        return QueueRows.ids(p, nowMs);
      }
    });
  }

  @Override
  public Stats stats(long nowMs) {
    return db.run("count queue messages", c -> {
      try (PreparedStatement p = c.prepareStatement(sql.queueStats)) {
        return QueueRows.stats(p, nowMs);
      }
    });
  }

  /** Raised when a message may have become available to the listeners of this instance. */
  @Override
  public Signal signal() {
    return signal;
  }

  @Override
  public boolean isClosed() {
    return engine.isClosed();
  }
}
