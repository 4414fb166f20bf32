package dev.kvasir.postgres;

import dev.kvasir.KvClosedException;
import dev.kvasir.KvException;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.QueueJson;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.ValueEncoding;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Queues shared by every instance (docs/queues.md, as the SQLite engine). A listener
 * takes the first due message with {@code FOR UPDATE SKIP LOCKED}, so instances never wait for
 * each other nor take the same message, and moves it to {@code queue_running} with a lease that
 * its instance renews while the handler runs. When an instance dies, its leases run out and any
 * instance puts those messages back as failed attempts. Failed attempts follow the backoff
 * schedule, then the payload goes to keysIfUndelivered.
 */
final class PostgresQueue {
  /** How long a running message stays taken without a renewal. */
  static final long LEASE_MS = 10_000;
  private static final long RENEW_EVERY_MS = 3_000;
  private static final long CLEANUP_EVERY_MS = 5_000;
  /** Enqueues elsewhere arrive by notification; delayed messages become due silently. */
  private static final long POLL_MS = 1_000;

  private final PostgresEngine engine;
  private final Database db;
  private final Writer writer;
  private final Sql sql;
  private final ScheduledExecutorService timer;
  private final Random random;
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean listening = new AtomicBoolean();
  private long signals; // guarded by this

  PostgresQueue(PostgresEngine engine, Database db, Writer writer, Sql sql,
      ScheduledExecutorService timer, Random random) {
    this.engine = engine;
    this.db = db;
    this.writer = writer;
    this.sql = sql;
    this.timer = timer;
    this.random = random;
  }

  DequeuedMessage dequeueNext() throws InterruptedException {
    if (listening.compareAndSet(false, true)) {
      timer.scheduleWithFixedDelay(this::renewLeases, RENEW_EVERY_MS, RENEW_EVERY_MS,
          TimeUnit.MILLISECONDS);
      timer.scheduleWithFixedDelay(this::requeueExpiredLeases, 0, CLEANUP_EVERY_MS,
          TimeUnit.MILLISECONDS);
    }
    while (true) {
      if (engine.isClosed()) {
        return null;
      }
      long seen = signals();
      long wait;
      try {
        // Take the first due message, or learn when the next one is due: one connection.
        Object next = db.run("dequeue", c -> {
          Delivery taken = take(c.prepareStatement(sql.queueTake));
          return taken != null ? taken : earliest(c.prepareStatement(sql.queueEarliest));
        });
        if (next instanceof Delivery taken) {
          return taken;
        }
        wait = Math.min(Math.max(1, (Long) next - System.currentTimeMillis()), POLL_MS);
      } catch (KvClosedException e) {
        return null;
      } catch (KvException e) {
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while waiting for a queue message");
        }
        throw e;
      }
      await(seen, wait);
    }
  }

  /** When the first queued message is due, or {@code Long.MAX_VALUE} if none is queued. */
  private static long earliest(PreparedStatement p) throws SQLException {
    try (p; ResultSet r = p.executeQuery()) {
      r.next();
      long ts = r.getLong(1);
      return r.wasNull() ? Long.MAX_VALUE : ts;
    }
  }

  /** Moves the first due message to queue_running, or returns null if none is due. */
  private Delivery take(PreparedStatement p) throws SQLException {
    try (p) {
      long now = System.currentTimeMillis();
      p.setLong(1, now);
      p.setLong(2, now + LEASE_MS);
      try (ResultSet r = p.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        String id = r.getString(1);
        running.add(id);
        return new Delivery(id, r.getBytes(2));
      }
    }
  }

  /** Handles a failed attempt of a running message: retry later, or dead-letter. */
  private void requeue(Tx tx, String id, boolean onlyIfExpired) throws SQLException {
    PreparedStatement claim = tx.prepare(onlyIfExpired ? sql.runningClaimExpired
        : sql.runningClaim);
    claim.setString(1, id);
    if (onlyIfExpired) {
      claim.setLong(2, System.currentTimeMillis());
    }
    byte[] data;
    List<Integer> backoff;
    String keysJson;
    try (ResultSet r = claim.executeQuery()) {
      if (!r.next()) {
        return; // already handled, e.g. by another instance after the lease ran out
      }
      data = r.getBytes(1);
      backoff = QueueJson.parseBackoff(r.getString(2));
      keysJson = r.getString(3);
    }
    if (!backoff.isEmpty()) {
      PreparedStatement add = tx.prepare(sql.queueAdd);
      add.setLong(1, System.currentTimeMillis() + backoff.get(0));
      add.setString(2, id);
      add.setBytes(3, data);
      add.setString(4, QueueJson.backoff(backoff.subList(1, backoff.size())));
      add.setString(5, keysJson);
      add.executeUpdate();
      tx.enqueued();
      tx.afterCommit(this::signal);
      return;
    }
    List<RawKey> keys = QueueJson.parseKeys(keysJson);
    if (!keys.isEmpty()) {
      long version = tx.nextVersion(1 + random.nextInt(9));
      EncodedValue payload = EncodedValue.wrap(ValueEncoding.V8, data);
      Commits.Mutations sets = new Commits.Mutations(tx);
      for (RawKey k : keys) {
        sets.set(k, payload, version, null);
      }
      sets.flush();
      tx.changed(keys);
      tx.afterCommit(() -> engine.changedLocally(keys));
    }
  }

  private void renewLeases() {
    if (running.isEmpty() || engine.isClosed()) {
      return;
    }
    String[] ids = running.toArray(new String[0]);
    try {
      db.run("renew queue leases", c -> {
        try (PreparedStatement p = c.prepareStatement(sql.runningExtend)) {
          p.setLong(1, System.currentTimeMillis() + LEASE_MS);
          p.setArray(2, c.createArrayOf("text", ids));
          return p.executeUpdate();
        }
      });
    } catch (RuntimeException e) {
      // The next renewal tries again; a lease may lapse and the message be redelivered.
    }
  }

  private void requeueExpiredLeases() {
    if (engine.isClosed()) {
      return;
    }
    try {
      List<String> expired = db.run("look for expired queue leases", c -> {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(sql.runningPastDeadline)) {
          p.setLong(1, System.currentTimeMillis());
          try (ResultSet r = p.executeQuery()) {
            while (r.next()) {
              ids.add(r.getString(1));
            }
          }
        }
        return ids;
      });
      expired.removeIf(running::contains);
      if (!expired.isEmpty()) {
        writer.execute(tx -> {
          for (String id : expired) {
            requeue(tx, id, true);
          }
          return null;
        });
      }
    } catch (RuntimeException e) {
      // Tried again at the next cleanup.
    }
  }

  /** A message may have become available: wake the listeners of this instance. */
  synchronized void signal() {
    signals++;
    notifyAll();
  }

  private synchronized long signals() {
    return signals;
  }

  private synchronized void await(long seen, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (signals == seen && !engine.isClosed()) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return;
      }
      wait(left);
    }
  }

  private final class Delivery implements DequeuedMessage {
    private final String id;
    private final byte[] payload;
    private final AtomicBoolean finished = new AtomicBoolean();

    Delivery(String id, byte[] payload) {
      this.id = id;
      this.payload = payload;
    }

    @Override
    public EncodedValue payload() {
      return EncodedValue.wrap(ValueEncoding.V8, payload);
    }

    @Override
    public void finish(boolean success) {
      if (!finished.compareAndSet(false, true)) {
        throw new IllegalStateException("queue message already finished");
      }
      try {
        if (success) {
          db.run("finish a queue message", c -> {
            try (PreparedStatement p = c.prepareStatement(sql.runningRemove)) {
              p.setString(1, id);
              return p.executeUpdate();
            }
          });
        } else {
          writer.execute(tx -> {
            requeue(tx, id, false);
            return null;
          });
        }
      } finally {
        running.remove(id);
      }
    }
  }
}
