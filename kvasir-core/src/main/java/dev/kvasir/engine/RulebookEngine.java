package dev.kvasir.engine;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.MeterSink;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.QueueDepth;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.EncodedValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A complete engine made of a {@link Storage} and the rulebook: reads skip expired rows,
 * commits follow {@link Commit}, queues {@link LeasedQueue} and {@link QueueRules}, watches
 * {@link KeyNotifier}, and a timer sweeps expired rows (one version per sweep, as Deno). The
 * in-memory engine is one; an engine that needs nothing else is a {@code Storage} and a
 * provider (docs/architecture.md, "Adding an engine"). Thread-safe.
 */
public class RulebookEngine implements KvEngine {
  private final Storage storage;
  private final String name;
  private final KeyNotifier notifier = new KeyNotifier();
  private final Signal queueSignal = new Signal();
  private final OpenState state = new OpenState();
  private final EngineTimer timer;
  private final LeasedQueue queue;

  /** An engine on {@code storage}, which it closes; {@code name} names its timer thread. */
  public RulebookEngine(Storage storage, String name) {
    this(storage, name, LeasedQueue.DEFAULT_POLL);
  }

  /**
   * An engine whose idle queue listeners look again every {@code queuePoll} when nothing wakes
   * them; every enqueue, retry and release of this engine does (docs/queues.md §3).
   *
   * @throws dev.kvasir.base.KvArgumentException for a poll shorter than a millisecond
   */
  public RulebookEngine(Storage storage, String name, Duration queuePoll) {
    LeasedQueue.checkPoll("queuePoll", queuePoll); // before the timer's thread starts
    this.storage = storage;
    this.name = name;
    this.timer = new EngineTimer("kvasir-" + name + "-timer", this::sweep);
    this.queue = new LeasedQueue(new Queue(), timer.executor(), queuePoll);
    timer.sweepAtOrBefore(storage.read(Storage.Snapshot::earliestExpiry));
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    state.ensureOpen();
    long now = System.currentTimeMillis();
    return storage.read(snapshot -> {
      List<List<RawEntry>> out = new ArrayList<>(ranges.size());
      for (ReadRange range : ranges) {
        out.add(read(snapshot, range, now));
      }
      return out;
    });
  }

  private static List<RawEntry> read(Storage.Snapshot snapshot, ReadRange range, long now) {
    List<RawEntry> out = new ArrayList<>(Math.min(range.limit(), 64));
    if (range.start().compareTo(range.end()) >= 0) {
      return out;
    }
    Iterator<Storage.Row> rows = snapshot.scan(range.start(), range.end(), range.reverse());
    while (rows.hasNext() && out.size() < range.limit()) {
      Storage.Row row = rows.next();
      if (Expiry.isLive(row.expireAtMs(), now)) {
        out.add(new RawEntry(row.key(), row.value(), Versionstamp.ofVersion(row.version())));
      }
    }
    return out;
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    state.ensureOpen();
    Optional<Commit.Applied> applied = write(
        tx -> Commit.apply(tx, write, System.currentTimeMillis()));
    applied.ifPresent(a -> {
      notifier.changed(a.keys());
      if (a.enqueued()) {
        queueSignal.raise();
      }
      if (a.expiring()) {
        timer.sweepAtOrBefore(a.earliestExpiry());
      }
    });
    return applied.map(Commit.Applied::versionstamp);
  }

  /** Deletes expired rows and idempotency records past their retention. */
  private void sweep() {
    if (state.isClosed()) {
      return;
    }
    timer.sweepStarted();
    long now = System.currentTimeMillis();
    List<RawKey> removed = storage.write(t -> {
      List<RawKey> expired = t.expiringBy(now);
      expired.forEach(t::delete);
      if (!expired.isEmpty()) {
        t.setVersion(t.version() + Versions.SWEEP_STEP);
      }
      t.forgetCommitsBefore(now - AtomicWrite.IDEMPOTENCY_RETENTION.toMillis());
      return expired;
    });
    notifier.changed(removed);
    timer.sweepFinished(removed.size());
    timer.sweepAtOrBefore(storage.read(Storage.Snapshot::earliestExpiry));
  }

  /** Reports its sweeps and queue to {@code sink} (docs/operations.md §5). */
  @Override
  public void bindMeters(MeterSink sink) {
    timer.bindMeters(sink);
    queue.bindMeters(sink);
  }

  @Override
  public long dump(Consumer<StoredEntry> sink) {
    state.ensureOpen();
    long now = System.currentTimeMillis();
    return storage.read(snapshot -> {
      Iterator<Storage.Row> rows = snapshot.scan(RawKey.BELOW_ALL, RawKey.ABOVE_ALL, false);
      while (rows.hasNext()) {
        Storage.Row row = rows.next();
        if (Expiry.isLive(row.expireAtMs(), now)) {
          sink.accept(row.stored());
        }
      }
      return snapshot.version();
    });
  }

  @Override
  public Optional<String> storageProblem() {
    state.ensureOpen();
    return storage.problem();
  }

  @Override
  public long committedVersion() {
    state.ensureOpen();
    return storage.read(Storage.Snapshot::version);
  }

  @Override
  public void load(Iterable<StoredEntry> entries) {
    state.ensureOpen();
    write(tx -> {
      Restore.load(tx, entries);
      return null;
    });
    // Read once committed: asked inside the transaction, a storage that keeps a large load's
    // expiry index packed until the commit must sort it first (docs/dag-engine.md §2).
    timer.sweepAtOrBefore(storage.read(Storage.Snapshot::earliestExpiry));
  }

  @Override
  public Optional<QueueDepth> queueDepth() {
    state.ensureOpen();
    return Optional.of(queue.depth());
  }

  @Override
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    state.ensureOpen();
    return queue.dequeueNext(timeout);
  }

  /**
   * The storage changed under the engine by other means (another process's commits that a
   * read-only engine follows): every watcher re-reads, every queue waiter looks again.
   */
  protected final void changedElsewhere() {
    notifier.changedAll();
    queueSignal.raise();
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    state.ensureOpen();
    return new NotifiedWatch(this, notifier, keys);
  }

  @Override
  public void close() {
    if (!state.close()) {
      return;
    }
    notifier.close();
    queueSignal.close();
    timer.stop();
    storage.close();
  }

  @Override
  public String toString() {
    return name;
  }

  /** Runs {@code work} in a storage transaction, then what it registered for after commit. */
  private <T> T write(Function<Tx, T> work) {
    List<Runnable> after = new ArrayList<>();
    T result = storage.write(t -> work.apply(new Tx(t, after)));
    after.forEach(Runnable::run);
    return result;
  }

  /** The rulebook's write primitives on a storage transaction. */
  private static final class Tx implements QueueTx<RuntimeException> {
    private final Storage.Transaction t;
    private final List<Runnable> afterCommit;

    Tx(Storage.Transaction t, List<Runnable> afterCommit) {
      this.t = t;
      this.afterCommit = afterCommit;
    }

    @Override
    public void afterCommit(Runnable action) {
      afterCommit.add(action);
    }

    @Override
    public StoredValue get(RawKey key, long nowMs) {
      Storage.Row row = t.row(key);
      return row == null || !Expiry.isLive(row.expireAtMs(), nowMs) ? null
          : new StoredValue(row.value(), row.version());
    }

    @Override
    public void put(RawKey key, EncodedValue value, long version, long expireAtMs) {
      t.put(new Storage.Row(key, value, version, expireAtMs));
    }

    @Override
    public void delete(RawKey key) {
      t.delete(key);
    }

    @Override
    public long nextVersion(int step) {
      long version = t.version() + step;
      t.setVersion(version);
      return version;
    }

    @Override
    public long recordedCommit(String id) {
      return t.commitVersion(id);
    }

    @Override
    public void recordCommit(String id, long version, long nowMs) {
      t.recordCommit(id, version, nowMs);
    }

    @Override
    public void enqueue(QueuedMessage message) {
      t.addWaiting(message);
    }

    @Override
    public QueuedMessage claimRunning(String id, long leaseEndedBeforeMs) {
      Storage.Lease lease = t.running(id);
      if (lease == null || leaseEndedBeforeMs >= 0 && lease.untilMs() > leaseEndedBeforeMs) {
        return null;
      }
      t.removeRunning(id);
      return lease.message();
    }
  }

  /** The queue operations {@link LeasedQueue} needs, each a storage transaction. */
  private final class Queue implements QueueStore {
    @Override
    public Take take(long nowMs, long leaseUntilMs) {
      state.ensureOpen();
      return storage.write(t -> {
        QueuedMessage first = t.firstWaiting();
        if (first == null || first.dueMs() > nowMs) {
          return new Take(null, first == null ? Long.MAX_VALUE : first.dueMs());
        }
        t.removeWaiting(first.id());
        t.putRunning(new Storage.Lease(first, leaseUntilMs));
        return new Take(first, nowMs);
      });
    }

    @Override
    public void succeeded(String id) {
      state.ensureOpen();
      storage.write(t -> {
        t.removeRunning(id);
        return null;
      });
    }

    @Override
    public void failed(String id, long leaseEndedBeforeMs) {
      state.ensureOpen();
      write(tx -> {
        QueueRules.failed(tx, id, leaseEndedBeforeMs, System.currentTimeMillis(),
            queueSignal::raise, notifier::changed);
        return null;
      });
    }

    @Override
    public void released(String id) {
      state.ensureOpen();
      write(tx -> {
        QueueRules.released(tx, id, System.currentTimeMillis(), queueSignal::raise);
        return null;
      });
    }

    @Override
    public void renew(Collection<String> ids, long untilMs) {
      storage.write(t -> {
        for (String id : ids) {
          Storage.Lease lease = t.running(id);
          if (lease != null) {
            t.putRunning(new Storage.Lease(lease.message(), untilMs));
          }
        }
        return null;
      });
    }

    @Override
    public List<String> expiredLeases(long nowMs) {
      return storage.write(t -> {
        List<String> ids = new ArrayList<>();
        for (Storage.Lease lease : t.allRunning()) {
          if (lease.untilMs() <= nowMs) {
            ids.add(lease.message().id());
          }
        }
        return ids;
      });
    }

    @Override
    public Stats stats(long nowMs) {
      // A read: it must work on a store open for reading only, a past state of KV/DAG.
      return storage.read(t -> {
        long ready = 0;
        long delayed = 0;
        long oldest = Long.MAX_VALUE;
        for (QueuedMessage m : t.allWaiting()) {
          if (m.dueMs() <= nowMs) {
            ready++;
            oldest = Math.min(oldest, m.dueMs());
          } else {
            delayed++;
          }
        }
        return new Stats(ready, delayed, t.allRunning().size(), oldest);
      });
    }

    @Override
    public Signal signal() {
      return queueSignal;
    }

    @Override
    public boolean isClosed() {
      return state.isClosed();
    }
  }
}
