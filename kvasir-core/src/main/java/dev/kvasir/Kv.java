package dev.kvasir;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.MeterSink;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Engines;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.value.KvU64;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * A Deno KV database: typed keys and JS values over any storage engine.
 *
 * <pre>{@code
 * try (Kv kv = Kv.open(":memory:")) {
 *   kv.set(KvKey.of("users", "alice"), Map.of("name", "Alice"));
 *   KvEntry e = kv.get(KvKey.of("users", "alice"));   // e.value(), e.versionstamp()
 *   for (KvEntry u : kv.list(ListSelector.prefix(KvKey.of("users")))) { ... }
 * }
 * }</pre>
 *
 * <p>This class is the one place that encodes keys and values, enforces Deno's limits ({@link
 * Limits}) before an engine is called, pages lists and maps cursors; engines only see bytes.
 * Thread-safe. After {@link #close()} every operation throws {@link KvClosedException}.
 */
public final class Kv implements AutoCloseable {
  private final KvEngine engine;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Set<WatchStream> watches = ConcurrentHashMap.newKeySet();
  private final Set<QueueListener> listeners = ConcurrentHashMap.newKeySet();
  private volatile LongConsumer committed = n -> { };
  private volatile LongConsumer checkFailed = n -> { };

  private Kv(KvEngine engine) {
    this.engine = engine;
  }

  /** Opens {@code location} with default options; see {@link #open(String, KvOptions)}. */
  public static Kv open(String location) {
    return open(location, KvOptions.defaults());
  }

  /**
   * Opens a database with the engine that takes {@code location}: {@code ":memory:"} for an
   * in-process database, and whatever the engines on the class path accept (a file path for
   * SQLite, {@code http(s)://} for KV Connect, {@code postgresql://}).
   *
   * @throws KvException naming the engines found if none takes the location
   * @see Engines
   */
  public static Kv open(String location, KvOptions options) {
    return new Kv(Engines.open(location, options));
  }

  /** A database over an engine built by hand; the {@code Kv} owns and closes it. */
  public static Kv of(KvEngine engine) {
    return new Kv(engine);
  }

  /** The entry at {@code key}; if absent, an entry whose value and versionstamp are null. */
  public KvEntry get(KvKey key) {
    return get(key, Consistency.STRONG);
  }

  public KvEntry get(KvKey key, Consistency consistency) {
    return getMany(List.of(key), consistency).get(0);
  }

  /** The entries of up to 10 keys, in order, from one snapshot. */
  public List<KvEntry> getMany(List<KvKey> keys) {
    return getMany(keys, Consistency.STRONG);
  }

  public List<KvEntry> getMany(List<KvKey> keys, Consistency consistency) {
    Limits.checkReadRanges(keys.size());
    ReadRange[] ranges = new ReadRange[keys.size()];
    for (int i = 0; i < ranges.length; i++) {
      KvKey k = keys.get(i);
      Limits.checkReadKey(k);
      ranges[i] = ReadRange.single(k.raw());
    }
    // An immutable list, as a list's batches pass too: engines then see one list class, and
    // the JIT need not compile their read path twice.
    List<List<RawEntry>> read = read(List.of(ranges), consistency);
    List<KvEntry> out = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      List<RawEntry> one = read.get(i);
      out.add(one.isEmpty() ? KvEntry.missing(keys.get(i))
          : new KvEntry(keys.get(i), one.get(0).value(), one.get(0).versionstamp()));
    }
    return out;
  }

  /**
   * Sets {@code key} to {@code value}: a {@code byte[]} is stored raw, a {@link KvU64} as a
   * little-endian u64, an {@link dev.kvasir.value.EncodedValue} exactly as it is, anything else
   * V8-serialized (docs/values.md §7).
   *
   * @throws KvLimitException if the key or value is too large
   * @throws IllegalArgumentException naming the path of a value that cannot be serialized
   */
  public CommitResult set(KvKey key, Object value) {
    return atomic().set(key, value).commit();
  }

  /** Sets {@code key} to {@code value}, removed after {@code expireIn}; never read once expired. */
  public CommitResult set(KvKey key, Object value, Duration expireIn) {
    return atomic().set(key, value, expireIn).commit();
  }

  /** Deletes {@code key}; a missing key is fine. */
  public void delete(KvKey key) {
    atomic().delete(key).commit();
  }

  /** The entries selected, in key order; see {@link #list(ListSelector, ListOptions)}. */
  public KvListIterator list(ListSelector selector) {
    return list(selector, ListOptions.defaults());
  }

  /**
   * The entries selected, fetched lazily in batches.
   *
   * @throws IllegalArgumentException for a malformed or out-of-range cursor
   * @throws KvLimitException if a bound is too long or {@code batchSize} exceeds 1000
   */
  public KvListIterator list(ListSelector selector, ListOptions options) {
    ensureOpen();
    return new KvListIterator(this, selector, options);
  }

  /** A new atomic operation on this database. */
  public AtomicOperation atomic() {
    ensureOpen();
    return new AtomicOperation(this);
  }

  /** Enqueues {@code value}, due now. */
  public CommitResult enqueue(Object value) {
    return atomic().enqueue(value).commit();
  }

  /** Enqueues {@code value} with a delay, dead-letter keys and backoff schedule. */
  public CommitResult enqueue(Object value, EnqueueOptions options) {
    return atomic().enqueue(value, options).commit();
  }

  /**
   * Starts delivering due queue messages to {@code handler}, one at a time, on a daemon thread
   * (several listeners share the messages). Delivery is at least once.
   */
  public QueueListener listenQueue(QueueHandler handler) {
    ensureOpen();
    QueueListener listener = new QueueListener(this, engine, handler);
    listeners.add(listener);
    if (closed.get()) {
      listeners.remove(listener);
      throw new KvClosedException();
    }
    listener.start();
    return listener;
  }

  /**
   * Watches up to 10 keys; see {@link WatchStream}. Close the stream when done.
   *
   * @throws KvLimitException for more than 10 keys or a key too long to read
   */
  public WatchStream watch(List<KvKey> keys) {
    ensureOpen();
    List<KvKey> copy = watchedKeys(keys);
    WatchStream stream =
        new WatchStream(this, copy, engine.watch(copy.stream().map(KvKey::raw).toList()));
    watches.add(stream);
    if (closed.get()) {
      stream.close();
    }
    return stream;
  }

  /**
   * The same emissions as {@link #watch(List)} for reactive code: every subscriber gets its own
   * watch, delivered on a daemon thread as demand allows, completing when the database closes.
   */
  public Flow.Publisher<List<KvEntry>> watchPublisher(List<KvKey> keys) {
    ensureOpen();
    return new WatchPublisher(this, watchedKeys(keys));
  }

  private static List<KvKey> watchedKeys(List<KvKey> keys) {
    List<KvKey> copy = List.copyOf(keys);
    Limits.checkWatchedKeys(copy.size());
    copy.forEach(Limits::checkReadKey);
    return copy;
  }

  /**
   * Reports what this database measures to {@code sink} from now on (docs/operations.md §5):
   * {@code kvasir.commits} by outcome, {@code kvasir.watches.open}, and its engine's meters
   * (group commits, sweeps, queue depth, storage). {@code kvasir-micrometer} binds them to a
   * Micrometer registry; without a sink nothing is recorded.
   */
  public void bindMeters(MeterSink sink) {
    ensureOpen();
    String what = "Atomic writes by outcome: committed, or refused by a failed check";
    committed = committed.andThen(sink.counter("kvasir.commits", what, "outcome", "committed"));
    checkFailed = checkFailed.andThen(sink.counter("kvasir.commits", what,
        "outcome", "check_failed"));
    sink.gauge("kvasir.watches.open", "Watch streams open now", watches::size);
    engine.bindMeters(sink);
  }

  /**
   * Stops queue listeners (after their messages in flight), ends watches and closes the engine.
   * Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      List.copyOf(listeners).forEach(QueueListener::close);
      List.copyOf(watches).forEach(WatchStream::close);
    } finally {
      engine.close();
    }
  }

  List<List<RawEntry>> read(List<ReadRange> ranges, Consistency consistency) {
    ensureOpen();
    return engine.snapshotRead(ranges, consistency);
  }

  CommitResult write(AtomicWrite write) {
    ensureOpen();
    Optional<Versionstamp> versionstamp = engine.atomicWrite(write);
    if (versionstamp.isPresent()) {
      committed.accept(1);
      return CommitResult.committed(versionstamp.get());
    }
    checkFailed.accept(1);
    return CommitResult.checkFailed();
  }

  void forget(WatchStream stream) {
    watches.remove(stream);
  }

  void forget(QueueListener listener) {
    listeners.remove(listener);
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new KvClosedException();
    }
  }
}
