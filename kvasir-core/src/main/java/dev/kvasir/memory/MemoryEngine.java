package dev.kvasir.memory;

import dev.kvasir.Consistency;
import dev.kvasir.KvClosedException;
import dev.kvasir.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.KeyNotifier;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.NotifiedWatch;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.spi.Sums;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An in-process engine with Deno KV's full semantics: the reference oracle the other engines
 * are tested against, and the engine behind {@code Kv.open(":memory:")} when no other engine
 * claims it. Nothing survives {@link #close()}.
 *
 * <p>One read-write lock guards everything: reads share it, commits, queue moves and expiry
 * sweeps take it exclusively. A commit is staged first and applied only when every mutation
 * succeeded, so a failing {@code sum} leaves no trace. Versions grow by a random 1..9 per
 * commit and by 1 per expiry sweep, as Deno's SQLite backend does (docs/sqlite.md §4).
 * Thread-safe.
 */
public final class MemoryEngine implements KvEngine {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Condition queueChanged = lock.writeLock().newCondition();
  private final TreeMap<RawKey, Row> rows = new TreeMap<>();
  private final KeyNotifier notifier = new KeyNotifier();
  private final MemoryQueue queue = new MemoryQueue();
  private final Condition expiriesChanged = lock.writeLock().newCondition();
  private final TreeSet<Expiry> expiries = new TreeSet<>();
  private final Random random = new Random();
  private final CommitIds commitIds = new CommitIds();
  private Thread sweeper;
  private long version;
  private volatile boolean closed;

  private MemoryEngine() {}

  /** A new, empty database. */
  public static MemoryEngine open() {
    return new MemoryEngine();
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    lock.readLock().lock();
    try {
      ensureOpen();
      long now = System.currentTimeMillis();
      List<List<RawEntry>> out = new ArrayList<>(ranges.size());
      for (ReadRange range : ranges) {
        out.add(read(range, now));
      }
      return out;
    } finally {
      lock.readLock().unlock();
    }
  }

  private List<RawEntry> read(ReadRange range, long now) {
    List<RawEntry> out = new ArrayList<>(Math.min(range.limit(), 64));
    if (range.start().compareTo(range.end()) >= 0) {
      return out;
    }
    NavigableMap<RawKey, Row> slice = rows.subMap(range.start(), true, range.end(), false);
    if (range.reverse()) {
      slice = slice.descendingMap();
    }
    for (Map.Entry<RawKey, Row> e : slice.entrySet()) {
      Row row = e.getValue();
      if (row.isLive(now)) {
        out.add(new RawEntry(e.getKey(), row.value(), Versionstamp.ofVersion(row.version())));
        if (out.size() == range.limit()) {
          break;
        }
      }
    }
    return out;
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    Map<RawKey, Row> staged;
    Versionstamp stamp;
    lock.writeLock().lock();
    try {
      ensureOpen();
      long now = System.currentTimeMillis();
      if (write.idempotencyKey() != null) {
        long recorded = commitIds.find(write.idempotencyKey());
        if (recorded >= 0) {
          return Optional.of(Versionstamp.ofVersion(recorded)); // applied before: not again
        }
      }
      for (Check check : write.checks()) {
        Row row = live(check.key(), now);
        Versionstamp current = row == null ? null : Versionstamp.ofVersion(row.version());
        if (!Objects.equals(current, check.versionstamp())) {
          return Optional.empty();
        }
      }
      long commitVersion = version + 1 + random.nextInt(9);
      stamp = Versionstamp.ofVersion(commitVersion);
      staged = stage(write.mutations(), commitVersion, stamp, now);
      version = commitVersion;
      staged.forEach(this::apply);
      if (write.idempotencyKey() != null) {
        commitIds.record(write.idempotencyKey(), commitVersion, now);
      }
      for (Enqueue e : write.enqueues()) {
        queue.add(e.payload(), e.deadline().toEpochMilli(), e.keysIfUndelivered(),
            e.effectiveBackoff());
      }
      if (!write.enqueues().isEmpty()) {
        queueChanged.signalAll();
      }
    } finally {
      lock.writeLock().unlock();
    }
    notifier.changed(staged.keySet());
    return Optional.of(stamp);
  }

  /** Applies the mutations to a private overlay; throws before anything is visible. */
  private Map<RawKey, Row> stage(
      List<Mutation> mutations, long commitVersion, Versionstamp stamp, long now) {
    Map<RawKey, Row> staged = new LinkedHashMap<>();
    for (Mutation m : mutations) {
      if (m instanceof Mutation.Set s) {
        staged.put(s.key(), new Row(s.value(), commitVersion, Row.expiry(s.expireAt())));
      } else if (m instanceof Mutation.SetVersionstampedKey s) {
        staged.put(s.keyFor(stamp), new Row(s.value(), commitVersion, Row.expiry(s.expireAt())));
      } else if (m instanceof Mutation.Delete d) {
        staged.put(d.key(), Row.DELETED);
      } else {
        Row before = staged.containsKey(m.key()) ? staged.get(m.key()) : live(m.key(), now);
        boolean absent = before == null || before == Row.DELETED;
        staged.put(m.key(), new Row(
            Sums.apply(m, absent ? null : before.value()), commitVersion, Row.NEVER));
      }
    }
    return staged;
  }

  private void apply(RawKey key, Row row) {
    if (row == Row.DELETED) {
      rows.remove(key);
    } else {
      rows.put(key, row);
      if (row.expireAtMs() != Row.NEVER) {
        scheduleExpiry(new Expiry(row.expireAtMs(), key));
      }
    }
  }

  private Row live(RawKey key, long now) {
    Row row = rows.get(key);
    return row != null && row.isLive(now) ? row : null;
  }

  /** Called with the write lock held. */
  private void scheduleExpiry(Expiry expiry) {
    Expiry first = expiries.isEmpty() ? null : expiries.first();
    expiries.add(expiry);
    if (sweeper == null) {
      sweeper = new Thread(this::sweepLoop, "kvasir-memory-expiry");
      sweeper.setDaemon(true);
      sweeper.start();
    } else if (first == null || expiry.compareTo(first) < 0) {
      expiriesChanged.signalAll();
    }
  }

  /**
   * Deletes rows as they expire, so watchers hear of it and memory is freed. Reads never depend
   * on it: they skip expired rows themselves.
   */
  private void sweepLoop() {
    while (true) {
      List<RawKey> removed = new ArrayList<>();
      lock.writeLock().lock();
      try {
        long now = System.currentTimeMillis();
        while (!closed && (expiries.isEmpty() || expiries.first().atMs() > now)) {
          long wait = expiries.isEmpty() ? Long.MAX_VALUE : expiries.first().atMs() - now;
          expiriesChanged.await(Math.min(wait, TimeUnit.HOURS.toMillis(1)), TimeUnit.MILLISECONDS);
          now = System.currentTimeMillis();
        }
        if (closed) {
          return;
        }
        while (!expiries.isEmpty() && expiries.first().atMs() <= now) {
          Expiry due = expiries.pollFirst();
          Row row = rows.get(due.key());
          if (row != null && row.expireAtMs() == due.atMs()) {
            rows.remove(due.key());
            removed.add(due.key());
          }
        }
        if (!removed.isEmpty()) {
          version += 1; // as Deno's sweep: exactly one version per sweep that deleted rows
        }
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.writeLock().unlock();
      }
      notifier.changed(removed);
    }
  }

  @Override
  public DequeuedMessage dequeueNext() throws InterruptedException {
    lock.writeLock().lockInterruptibly();
    try {
      while (true) {
        if (closed) {
          return null;
        }
        long now = System.currentTimeMillis();
        long due = queue.nextDueMs();
        if (due <= now) {
          MemoryQueue.Message message = queue.take();
          return new Delivery(message);
        }
        if (due == Long.MAX_VALUE) {
          queueChanged.await();
        } else {
          queueChanged.await(due - now, TimeUnit.MILLISECONDS);
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    ensureOpen();
    return new NotifiedWatch(this, notifier, keys);
  }

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      queueChanged.signalAll();
      expiriesChanged.signalAll();
    } finally {
      lock.writeLock().unlock();
    }
    notifier.close();
  }

  private void ensureOpen() {
    if (closed) {
      throw new KvClosedException();
    }
  }

  /** A message handed out by {@link #dequeueNext()}. */
  private final class Delivery implements DequeuedMessage {
    private final MemoryQueue.Message message;

    Delivery(MemoryQueue.Message message) {
      this.message = message;
    }

    @Override
    public dev.kvasir.value.EncodedValue payload() {
      return message.payload();
    }

    @Override
    public void finish(boolean success) {
      List<RawKey> deadLettered = List.of();
      lock.writeLock().lock();
      try {
        ensureOpen();
        if (!queue.finish(message)) {
          throw new IllegalStateException("queue message already finished");
        }
        if (success) {
          return;
        }
        if (!message.backoff().isEmpty()) {
          queue.retry(message, System.currentTimeMillis());
          queueChanged.signalAll();
        } else if (!message.keysIfUndelivered().isEmpty()) {
          long deadLetterVersion = version + 1 + random.nextInt(9);
          version = deadLetterVersion;
          for (RawKey k : message.keysIfUndelivered()) {
            apply(k, new Row(message.payload(), deadLetterVersion, Row.NEVER));
          }
          deadLettered = message.keysIfUndelivered();
        }
      } finally {
        lock.writeLock().unlock();
      }
      notifier.changed(deadLettered);
    }
  }

  /** When the row at {@code key} written with that expiry is due for deletion. */
  private record Expiry(long atMs, RawKey key) implements Comparable<Expiry> {
    @Override
    public int compareTo(Expiry other) {
      int c = Long.compare(atMs, other.atMs);
      return c != 0 ? c : key.compareTo(other.key);
    }
  }

  /** A stored value; {@link #DELETED} marks a staged delete. */
  record Row(dev.kvasir.value.EncodedValue value, long version, long expireAtMs) {
    static final long NEVER = Long.MAX_VALUE;
    static final Row DELETED = new Row(null, -1, NEVER);

    static long expiry(Instant expireAt) {
      return expireAt == null ? NEVER : expireAt.toEpochMilli();
    }

    /** Deno treats a row as expired from its expiration millisecond on. */
    boolean isLive(long now) {
      return expireAtMs > now;
    }
  }
}
