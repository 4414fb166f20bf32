package dev.kvasir.memory;

import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.engine.Storage;
import dev.kvasir.spi.RawKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The in-memory engine's storage: sorted maps under one read-write lock. Reads share the lock; a
 * write transaction holds it alone and changes the maps in place, logging how to undo each
 * change, so a transaction that throws is rolled back before anyone can see it.
 */
final class MemoryStorage implements Storage {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final TreeMap<RawKey, Row> rows = new TreeMap<>();
  /** Rows with an expiry, by expiry then key. */
  private final TreeSet<Expiring> expiring = new TreeSet<>();
  /** Idempotency records in the order made, so the oldest come first. */
  private final LinkedHashMap<String, long[]> commits = new LinkedHashMap<>();
  private final TreeSet<Waiting> waiting = new TreeSet<>();
  private final Map<String, Waiting> waitingById = new HashMap<>();
  private final Map<String, Lease> running = new HashMap<>();
  private final Txn txn = new Txn();
  private long version;
  private long added;

  private record Expiring(long atMs, RawKey key) implements Comparable<Expiring> {
    @Override
    public int compareTo(Expiring o) {
      int c = Long.compare(atMs, o.atMs);
      return c != 0 ? c : key.compareTo(o.key);
    }
  }

  /** A waiting message; {@code order} breaks ties of due time by enqueue order. */
  private record Waiting(long dueMs, long order, QueuedMessage message)
      implements Comparable<Waiting> {
    @Override
    public int compareTo(Waiting o) {
      int c = Long.compare(dueMs, o.dueMs);
      return c != 0 ? c : Long.compare(order, o.order);
    }
  }

  @Override
  public <T> T read(Function<Snapshot, T> work) {
    lock.readLock().lock();
    try {
      return work.apply(txn);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public <T> T write(Function<Transaction, T> work) {
    lock.writeLock().lock();
    try {
      txn.undo.clear();
      try {
        return work.apply(txn);
      } catch (RuntimeException | Error e) {
        while (!txn.undo.isEmpty()) {
          txn.undo.pop().run();
        }
        throw e;
      }
    } finally {
      txn.undo.clear();
      lock.writeLock().unlock();
    }
  }

  @Override
  public void close() {}

  /** Reads and writes on the maps; writes only under the write lock. */
  private final class Txn implements Transaction {
    final Deque<Runnable> undo = new ArrayDeque<>();

    @Override
    public Iterator<Row> scan(RawKey start, RawKey end, boolean reverse) {
      NavigableMap<RawKey, Row> slice = rows.subMap(start, true, end, false);
      return (reverse ? slice.descendingMap() : slice).values().iterator();
    }

    @Override
    public Row row(RawKey key) {
      return rows.get(key);
    }

    @Override
    public List<RawKey> expiringBy(long atMs) {
      List<RawKey> keys = new ArrayList<>();
      for (Expiring e : expiring) {
        if (e.atMs() > atMs) {
          break;
        }
        keys.add(e.key());
      }
      return keys;
    }

    @Override
    public long earliestExpiry() {
      return expiring.isEmpty() ? Long.MAX_VALUE : expiring.first().atMs();
    }

    @Override
    public void put(Row row) {
      restore(row.key(), rows.put(row.key(), row));
      if (row.expireAtMs() != Expiry.NEVER) {
        expiring.add(new Expiring(row.expireAtMs(), row.key()));
      }
    }

    @Override
    public void delete(RawKey key) {
      restore(key, rows.remove(key));
    }

    /** Forgets the expiry of {@code before}, and undoes by putting it back. */
    private void restore(RawKey key, Row before) {
      if (before != null && before.expireAtMs() != Expiry.NEVER) {
        expiring.remove(new Expiring(before.expireAtMs(), key));
      }
      undo.push(() -> {
        Row now = rows.remove(key);
        if (now != null) {
          expiring.remove(new Expiring(now.expireAtMs(), key));
        }
        if (before != null) {
          rows.put(key, before);
          if (before.expireAtMs() != Expiry.NEVER) {
            expiring.add(new Expiring(before.expireAtMs(), key));
          }
        }
      });
    }

    @Override
    public long version() {
      return version;
    }

    @Override
    public void setVersion(long v) {
      long before = version;
      version = v;
      undo.push(() -> version = before);
    }

    @Override
    public long commitVersion(String id) {
      long[] c = commits.get(id);
      return c == null ? -1 : c[0];
    }

    @Override
    public void recordCommit(String id, long v, long atMs) {
      commits.put(id, new long[] {v, atMs});
      undo.push(() -> commits.remove(id));
    }

    @Override
    public void forgetCommitsBefore(long atMs) {
      for (Iterator<long[]> it = commits.values().iterator(); it.hasNext(); ) {
        if (it.next()[1] >= atMs) {
          break;
        }
        it.remove(); // only in sweeps, which do not fail after this
      }
    }

    @Override
    public void addWaiting(QueuedMessage message) {
      Waiting w = new Waiting(message.dueMs(), added++, message);
      waiting.add(w);
      waitingById.put(message.id(), w);
      undo.push(() -> unlinkWaiting(message.id()));
    }

    @Override
    public List<QueuedMessage> allWaiting() {
      return waiting.stream().map(Waiting::message).toList();
    }

    @Override
    public QueuedMessage firstWaiting() {
      return waiting.isEmpty() ? null : waiting.first().message();
    }

    @Override
    public void removeWaiting(String id) {
      Waiting w = unlinkWaiting(id);
      if (w != null) {
        undo.push(() -> {
          waiting.add(w);
          waitingById.put(id, w);
        });
      }
    }

    private Waiting unlinkWaiting(String id) {
      Waiting w = waitingById.remove(id);
      if (w != null) {
        waiting.remove(w);
      }
      return w;
    }

    @Override
    public void putRunning(Lease lease) {
      String id = lease.message().id();
      Lease before = running.put(id, lease);
      undo.push(() -> {
        if (before == null) {
          running.remove(id);
        } else {
          running.put(id, before);
        }
      });
    }

    @Override
    public Lease running(String id) {
      return running.get(id);
    }

    @Override
    public void removeRunning(String id) {
      Lease before = running.remove(id);
      if (before != null) {
        undo.push(() -> running.put(id, before));
      }
    }

    @Override
    public List<Lease> allRunning() {
      return new ArrayList<>(running.values());
    }
  }
}
