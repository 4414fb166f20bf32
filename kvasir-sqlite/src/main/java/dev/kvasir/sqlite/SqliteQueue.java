package dev.kvasir.sqlite;

import dev.kvasir.KvClosedException;
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
 * Queues on denokv's tables (docs/queues.md). A taken message moves from {@code queue}
 * to {@code queue_running} with a short lease that this process renews while the handler runs
 * (denokv meant to, but its keepalive is inert); a message whose lease ran out, because its
 * process died, goes back to the queue as a failed attempt. Failed attempts follow the backoff
 * schedule, then dead-letter the payload into keysIfUndelivered.
 */
final class SqliteQueue {
  /** How long a running message stays taken without a renewal. */
  static final long LEASE_MS = 10_000;
  private static final long RENEW_EVERY_MS = 3_000;
  private static final long CLEANUP_EVERY_MS = 5_000;
  /**
   * Other processes' enqueues wake listeners through {@link ForeignCommits}, but their requeues
   * after a failure bump no version: look at least this often.
   */
  private static final long POLL_MS = 1_000;

  private final SqliteEngine engine;
  private final Writer writer;
  private final Shared shared;
  private final ScheduledExecutorService timer;
  private final Random random;
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean listening = new AtomicBoolean();

  SqliteQueue(SqliteEngine engine, Writer writer, Shared shared, ScheduledExecutorService timer,
      Random random) {
    this.engine = engine;
    this.writer = writer;
    this.shared = shared;
    this.timer = timer;
    this.random = random;
  }

  void start() {
    timer.execute(this::requeueExpiredLeases);
  }

  DequeuedMessage dequeueNext() throws InterruptedException {
    if (listening.compareAndSet(false, true)) {
      timer.scheduleWithFixedDelay(this::renewLeases, RENEW_EVERY_MS, RENEW_EVERY_MS,
          TimeUnit.MILLISECONDS);
      timer.scheduleWithFixedDelay(this::requeueExpiredLeases, CLEANUP_EVERY_MS,
          CLEANUP_EVERY_MS, TimeUnit.MILLISECONDS);
    }
    while (true) {
      if (engine.isClosed()) {
        return null;
      }
      long seen = shared.queueSignals();
      long now = System.currentTimeMillis();
      long earliest;
      try {
        earliest = engine.read(SqliteQueue::earliest);
        if (earliest <= now) {
          Taken taken = writer.execute(this::take);
          if (taken != null) {
            running.add(taken.id);
            return new Delivery(taken);
          }
          continue;
        }
      } catch (KvClosedException e) {
        return null;
      }
      shared.awaitQueue(seen, Math.min(earliest - now, POLL_MS));
    }
  }

  private static long earliest(Tx tx) throws SQLException {
    try (ResultSet r = tx.prepare(Sql.QUEUE_EARLIEST).executeQuery()) {
      return r.next() ? r.getLong(1) : Long.MAX_VALUE;
    }
  }

  private record Taken(String id, byte[] payload) {}

  /** Moves the first due message to queue_running, or returns null if none is due. */
  private Taken take(Tx tx) throws SQLException {
    long now = System.currentTimeMillis();
    PreparedStatement next = tx.prepare(Sql.QUEUE_NEXT_READY);
    next.setLong(1, now);
    String id;
    byte[] data;
    String backoff;
    String keys;
    try (ResultSet r = next.executeQuery()) {
      if (!r.next()) {
        return null;
      }
      id = r.getString(2);
      data = r.getBytes(3);
      backoff = r.getString(4);
      keys = r.getString(5);
    }
    PreparedStatement remove = tx.prepare(Sql.QUEUE_REMOVE);
    remove.setString(1, id);
    remove.executeUpdate();
    PreparedStatement add = tx.prepare(Sql.RUNNING_ADD);
    add.setLong(1, now + LEASE_MS);
    add.setString(2, id);
    add.setBytes(3, data);
    add.setString(4, backoff);
    add.setString(5, keys);
    add.executeUpdate();
    return new Taken(id, data);
  }

  /** Handles a failed attempt of a running message: retry later, or dead-letter. */
  private void requeue(Tx tx, String id) throws SQLException {
    PreparedStatement get = tx.prepare(Sql.RUNNING_BY_ID);
    get.setString(1, id);
    byte[] data;
    List<Integer> backoff;
    String backoffJson;
    String keysJson;
    try (ResultSet r = get.executeQuery()) {
      if (!r.next()) {
        return; // already requeued, e.g. by another process after the lease ran out
      }
      data = r.getBytes(3);
      backoffJson = r.getString(4);
      keysJson = r.getString(5);
      backoff = QueueJson.parseBackoff(backoffJson);
    }
    long now = System.currentTimeMillis();
    if (!backoff.isEmpty()) {
      PreparedStatement add = tx.prepare(Sql.QUEUE_ADD);
      add.setLong(1, now + backoff.get(0));
      add.setString(2, id);
      add.setBytes(3, data);
      add.setString(4, QueueJson.backoff(backoff.subList(1, backoff.size())));
      add.setString(5, keysJson);
      add.executeUpdate();
      tx.afterCommit(shared::signalQueue);
    } else {
      List<RawKey> keys = QueueJson.parseKeys(keysJson);
      if (!keys.isEmpty()) {
        long version = tx.bumpVersion(1 + random.nextInt(9));
        EncodedValue payload = EncodedValue.wrap(ValueEncoding.V8, data);
        for (RawKey k : keys) {
          Commits.set(tx, k, payload, version, -1);
        }
        tx.afterCommit(() -> shared.notifier.changed(keys));
      }
    }
    PreparedStatement remove = tx.prepare(Sql.RUNNING_REMOVE);
    remove.setString(1, id);
    remove.executeUpdate();
  }

  private void renewLeases() {
    if (running.isEmpty() || engine.isClosed()) {
      return;
    }
    List<String> ids = new ArrayList<>(running);
    try {
      writer.execute(tx -> {
        PreparedStatement p = tx.prepare(Sql.RUNNING_EXTEND);
        for (String id : ids) {
          p.setLong(1, System.currentTimeMillis() + LEASE_MS);
          p.setString(2, id);
          p.executeUpdate();
        }
        return null;
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
      writer.execute(tx -> {
        PreparedStatement p = tx.prepare(Sql.RUNNING_PAST_DEADLINE);
        p.setLong(1, System.currentTimeMillis());
        List<String> ids = new ArrayList<>();
        try (ResultSet r = p.executeQuery()) {
          while (r.next()) {
            ids.add(r.getString(1));
          }
        }
        for (String id : ids) {
          if (!running.contains(id)) {
            requeue(tx, id);
          }
        }
        return null;
      });
    } catch (RuntimeException e) {
      // Tried again at the next cleanup.
    }
  }

  void close() {
    shared.signalQueue();
  }

  private final class Delivery implements DequeuedMessage {
    private final Taken taken;
    private final AtomicBoolean finished = new AtomicBoolean();

    Delivery(Taken taken) {
      this.taken = taken;
    }

    @Override
    public EncodedValue payload() {
      return EncodedValue.wrap(ValueEncoding.V8, taken.payload);
    }

    @Override
    public void finish(boolean success) {
      if (!finished.compareAndSet(false, true)) {
        throw new IllegalStateException("queue message already finished");
      }
      try {
        writer.execute(tx -> {
          if (success) {
            PreparedStatement remove = tx.prepare(Sql.RUNNING_REMOVE);
            remove.setString(1, taken.id);
            remove.executeUpdate();
          } else {
            requeue(tx, taken.id);
          }
          return null;
        });
      } finally {
        running.remove(taken.id);
      }
    }
  }
}
