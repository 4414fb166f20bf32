package dev.kvasir;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvConflictException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.MeterSink;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.mapping.ValueMapper;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Engines;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.value.KvU64;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

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
  /** Listing a whole selection, for counting and deleting it. */
  private static final ListOptions WHOLE = ListOptions.defaults().batchSize(1000);
  /**
   * Failed attempts after which a transaction takes its turn ({@link ConflictTurns}), at the
   * latest before its last: rare enough under contention that others seldom wait for it, soon
   * enough that none gives up.
   */
  private static final int TURN_AFTER_ATTEMPTS = 12;

  private final KvEngine engine;
  private final ValueMapper mapper;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Set<WatchStream> watches = ConcurrentHashMap.newKeySet();
  private final Set<QueueListener> listeners = ConcurrentHashMap.newKeySet();
  /** Where {@link #bindMeters} reports, told when the database closes. */
  private final List<MeterSink> sinks = new CopyOnWriteArrayList<>();
  private final ConflictTurns turns = new ConflictTurns();
  private volatile LongConsumer committed = n -> { };
  private volatile LongConsumer checkFailed = n -> { };
  private volatile LongConsumer transactions = n -> { };
  private volatile LongConsumer conflicts = n -> { };

  private Kv(KvEngine engine, ValueMapper mapper) {
    this.engine = engine;
    this.mapper = mapper;
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
    return builder(location).options(options).open();
  }

  /** A database over an engine built by hand; the {@code Kv} owns and closes it. */
  public static Kv of(KvEngine engine) {
    return builder(engine).open();
  }

  /**
   * The engine under this database, for tools that work below the API: a lossless dump
   * ({@link KvEngine#dump}), a restore ({@link KvEngine#load}) or a fingerprint. Writing through
   * it bypasses the checks this class makes.
   */
  public KvEngine engine() {
    return engine;
  }

  /**
   * Opens {@code location} with more than options:
   * {@code Kv.builder("app.sqlite3").options(…).mapper(…).open()}.
   */
  public static Builder builder(String location) {
    return new Builder(Objects.requireNonNull(location, "location"), null);
  }

  /** A database over an engine built by hand, with more than {@link #of(KvEngine)} sets. */
  public static Builder builder(KvEngine engine) {
    return new Builder(null, Objects.requireNonNull(engine, "engine"));
  }

  /** How a {@link Kv} is opened; {@link Kv#builder(String)}. Not thread-safe. */
  public static final class Builder {
    private final String location;
    private final KvEngine engine;
    private KvOptions options = KvOptions.defaults();
    private ValueMapper mapper = ValueMapper.defaults();

    private Builder(String location, KvEngine engine) {
      this.location = location;
      this.engine = engine;
    }

    /** The engine's options (docs for each engine name them); default none. */
    public Builder options(KvOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * How values are written and read as Java types (docs/mapping.md); default {@link
     * ValueMapper#defaults()}.
     */
    public Builder mapper(ValueMapper mapper) {
      this.mapper = Objects.requireNonNull(mapper, "mapper");
      return this;
    }

    /**
     * Opens the database.
     *
     * @throws KvException naming the engines found if none takes the location
     */
    public Kv open() {
      return new Kv(engine != null ? engine : Engines.open(location, options), mapper);
    }
  }

  /** How this database maps values to Java types. */
  public ValueMapper mapper() {
    return mapper;
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
    // An immutable list, as a list's batches pass too: engines then see one list class, and
    // the JIT need not compile their read path twice.
    return entries(keys, read(readRanges(keys), consistency));
  }

  /** The ranges that read {@code keys}, checked against Deno's limits. */
  List<ReadRange> readRanges(List<KvKey> keys) {
    Limits.checkReadRanges(keys.size());
    ReadRange[] ranges = new ReadRange[keys.size()];
    for (int i = 0; i < ranges.length; i++) {
      KvKey k = keys.get(i);
      Limits.checkReadKey(k);
      ranges[i] = ReadRange.single(k.raw());
    }
    return List.of(ranges);
  }

  /** The entries of {@code keys} from what their ranges read. */
  List<KvEntry> entries(List<KvKey> keys, List<List<RawEntry>> read) {
    List<KvEntry> out = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      List<RawEntry> one = read.get(i);
      out.add(one.isEmpty() ? KvEntry.missing(keys.get(i), mapper)
          : new KvEntry(keys.get(i), one.get(0).value(), one.get(0).versionstamp(), mapper));
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
  public CommitResult set(KvKey key, @Nullable Object value) {
    return atomic().set(key, value).commit();
  }

  /** Sets {@code key} to {@code value}, removed after {@code expireIn}; never read once expired. */
  public CommitResult set(KvKey key, @Nullable Object value, Duration expireIn) {
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
   * @throws KvArgumentException for a malformed or out-of-range cursor, or a depth limit on a
   *     range selector
   * @throws KvLimitException if a bound is too long or {@code batchSize} exceeds 1000
   */
  public KvListIterator list(ListSelector selector, ListOptions options) {
    ensureOpen();
    return new KvListIterator(this, selector, options);
  }

  /** The keys selected, in key order; see {@link #listKeys(ListSelector, ListOptions)}. */
  public Stream<KvKey> listKeys(ListSelector selector) {
    return listKeys(selector, ListOptions.defaults());
  }

  /**
   * The keys selected, fetched lazily in batches as the stream is consumed, without decoding a
   * value (Deno's keys-only listing); see {@link #list(ListSelector, ListOptions)}.
   */
  public Stream<KvKey> listKeys(ListSelector selector, ListOptions options) {
    return list(selector, options).stream().map(KvEntry::key);
  }

  /** How many keys the selection holds now; reads every key, in batches of 1000. */
  public long count(ListSelector selector) {
    return list(selector, WHOLE).stream().count();
  }

  /**
   * Deletes every key the selection holds, in atomic operations within Deno's limits (1000
   * mutations, 800 KiB of keys each): the range as a whole is not deleted atomically, and keys
   * written meanwhile may be deleted or not. Watchers hear each batch.
   *
   * @return how many keys were deleted
   */
  public long deleteRange(ListSelector selector) {
    long deleted = 0;
    AtomicOperation batch = atomic();
    int inBatch = 0;
    long batchBytes = 0;
    for (Iterator<KvKey> it = listKeys(selector, WHOLE).iterator(); it.hasNext(); ) {
      KvKey key = it.next();
      if (inBatch == Limits.MAX_MUTATIONS
          || batchBytes + key.encodedLength() > Limits.MAX_TOTAL_MUTATION_BYTES) {
        batch.commit();
        deleted += inBatch;
        batch = atomic();
        inBatch = 0;
        batchBytes = 0;
      }
      batch.delete(key);
      inBatch++;
      batchBytes += key.encodedLength();
    }
    if (inBatch > 0) {
      batch.commit();
      deleted += inBatch;
    }
    return deleted;
  }

  /**
   * The entries of any number of keys, in order, read {@link Limits#MAX_READ_RANGES} at a time:
   * each group of ten is one snapshot, the whole list is not.
   */
  public List<KvEntry> getAll(List<KvKey> keys) {
    List<KvEntry> out = new ArrayList<>(keys.size());
    for (int from = 0; from < keys.size(); from += Limits.MAX_READ_RANGES) {
      out.addAll(getMany(keys.subList(from, Math.min(keys.size(),
          from + Limits.MAX_READ_RANGES))));
    }
    return out;
  }

  /**
   * Runs {@code work} as an optimistic transaction (docs/atomic.md §8), retrying it with
   * {@link TransactOptions#defaults()}; see {@link #transact(TransactOptions, Function)}.
   */
  public <T> T transact(Function<KvTransaction, T> work) {
    return transact(TransactOptions.defaults(), work);
  }

  /**
   * Runs {@code work} as an optimistic transaction, as FoundationDB's {@code run} does: its reads
   * through the {@link KvTransaction} become checks, its writes commit with them in one atomic
   * operation, and when a check fails (another commit changed a key it read) it runs again,
   * after a growing random pause, up to {@code options.maxAttempts()} times; one that keeps
   * losing takes a turn in which no other transaction of this database runs. {@code work} may
   * run more than once, so it should do nothing but read and write through its transaction
   * (waiting in it for another thread's transaction may wait for ever).
   *
   * <pre>{@code
   * long next = kv.transact(tx -> {
   *   long n = tx.get(counter).value(Long.class);
   *   tx.set(counter, n + 1);
   *   return n + 1;
   * });
   * }</pre>
   *
   * @return what {@code work} returned in the attempt that committed
   * @throws KvConflictException when the last attempt's check failed too; nothing was applied
   */
  public <T> T transact(TransactOptions options, Function<KvTransaction, T> work) {
    ensureOpen();
    long bound = Math.max(1, options.firstBackoff().toNanos());
    // A transaction begun inside another's work takes no turn: the outer one may hold it, or
    // be an attempt that a holder waits for.
    boolean nested = turns.nested();
    int turnAfter = Math.min(TURN_AFTER_ATTEMPTS, options.maxAttempts() - 1);
    boolean turn = false;
    try {
      for (int attempt = 1; ; attempt++) {
        boolean free = !turn && !nested;
        if (free) {
          waitForTurns();
        }
        T result;
        boolean ok;
        turns.inAttempt(true);
        try {
          KvTransaction tx = new KvTransaction(this);
          result = work.apply(tx);
          ok = tx.commit().ok();
        } finally {
          turns.inAttempt(nested);
          if (free) {
            turns.endFree();
          }
        }
        if (ok) {
          transactions.accept(1);
          return result;
        }
        conflicts.accept(1);
        if (attempt == options.maxAttempts()) {
          throw new KvConflictException("the transaction met other commits to the keys it read "
              + attempt + " times in a row and gave up (TransactOptions.maxAttempts)", attempt);
        }
        if (!turn && !nested && attempt >= turnAfter) {
          // Losing again and again: take the turn, held until this transaction ends. Its next
          // attempt meets no other transaction of this process, so it goes at once.
          takeTurn();
          turn = true;
          continue;
        }
        // Pause, longer each time, so that contending transactions spread out; once this one
        // holds the turn, what changed its keys came from elsewhere (another process, a plain
        // write, the outer transaction).
        try {
          TimeUnit.NANOSECONDS.sleep(ThreadLocalRandom.current().nextLong(bound + 1));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new KvException("interrupted between attempts of a transaction; nothing of it"
              + " was applied", e);
        }
        bound = Math.min(bound * 2, options.maxBackoff().toNanos());
      }
    } finally {
      if (turn) {
        turns.release();
      }
    }
  }

  private void takeTurn() {
    try {
      turns.take();
    } catch (InterruptedException e) {
      throw interruptedWaiting(e);
    }
  }

  private void waitForTurns() {
    try {
      turns.startFree();
    } catch (InterruptedException e) {
      throw interruptedWaiting(e);
    }
  }

  private static KvException interruptedWaiting(InterruptedException e) {
    Thread.currentThread().interrupt();
    return new KvException("interrupted while a transaction that met a conflict had its turn;"
        + " nothing of this one was applied", e);
  }

  /**
   * Adds {@code n} to the u64 at {@code key} (missing: 0) in a commit of its own; a negative
   * {@code n} subtracts, wrapping around below zero; see {@link AtomicOperation#sum(KvKey,
   * long)}.
   */
  public CommitResult sum(KvKey key, long n) {
    return atomic().sum(key, n).commit();
  }

  /** Keeps the smaller of the u64 at {@code key} and {@code n}, in a commit of its own. */
  public CommitResult min(KvKey key, long n) {
    return atomic().min(key, n).commit();
  }

  /** Keeps the larger of the u64 at {@code key} and {@code n}, in a commit of its own. */
  public CommitResult max(KvKey key, long n) {
    return atomic().max(key, n).commit();
  }

  /** A new atomic operation on this database. */
  public AtomicOperation atomic() {
    ensureOpen();
    return new AtomicOperation(this);
  }

  /** Enqueues {@code value}, due now. */
  public CommitResult enqueue(@Nullable Object value) {
    return atomic().enqueue(value).commit();
  }

  /** Enqueues {@code value} with a delay, dead-letter keys and backoff schedule. */
  public CommitResult enqueue(@Nullable Object value, EnqueueOptions options) {
    return atomic().enqueue(value, options).commit();
  }

  /**
   * Starts delivering due queue messages to {@code handler}, one at a time, on a daemon thread
   * (several listeners share the messages). Delivery is at least once. A program whose main
   * thread has nothing else to do waits on {@link QueueListener#awaitTermination()}.
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
    copy.forEach(Limits::checkWatchedKey);
    return copy;
  }

  /**
   * Reports what this database measures to {@code sink} from now on (docs/operations.md §5):
   * {@code kvasir.commits} by outcome, {@code kvasir.watches.open}, and its engine's meters
   * (group commits, sweeps, queue depth, storage). {@code kvasir-micrometer} binds them to a
   * Micrometer registry; without a sink nothing is recorded. Closing the database tells the sink
   * ({@link MeterSink#databaseClosed()}).
   */
  public void bindMeters(MeterSink sink) {
    ensureOpen();
    sinks.add(sink);
    String what = "Atomic writes by outcome: committed, or refused by a failed check";
    committed = committed.andThen(sink.counter("kvasir.commits", what, "outcome", "committed"));
    checkFailed = checkFailed.andThen(sink.counter("kvasir.commits", what,
        "outcome", "check_failed"));
    sink.gauge("kvasir.watches.open", "Watch streams open now", watches::size);
    transactions = transactions.andThen(sink.counter("kvasir.transactions",
        "Transactions (Kv.transact) committed"));
    conflicts = conflicts.andThen(sink.counter("kvasir.transaction.conflicts",
        "Attempts of transactions whose checks failed, each retried or given up"));
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
      try {
        engine.close();
      } finally {
        sinks.forEach(MeterSink::databaseClosed);
      }
    }
  }

  List<List<RawEntry>> read(List<ReadRange> ranges, Consistency consistency) {
    ensureOpen();
    return engine.snapshotRead(ranges, consistency);
  }

  CommitResult write(AtomicWrite write) {
    ensureOpen();
    return result(engine.atomicWrite(write));
  }

  /** The engine's asynchronous read; the future may complete on an engine thread. */
  CompletableFuture<List<List<RawEntry>>> readAsync(List<ReadRange> ranges,
      Consistency consistency) {
    ensureOpen();
    return engine.snapshotReadAsync(ranges, consistency);
  }

  /** The engine's asynchronous write; the future may complete on an engine thread. */
  CompletableFuture<CommitResult> writeAsync(AtomicWrite write) {
    ensureOpen();
    return engine.atomicWriteAsync(write).thenApply(this::result);
  }

  private CommitResult result(Optional<Versionstamp> versionstamp) {
    if (versionstamp.isPresent()) {
      committed.accept(1);
      return CommitResult.committed(versionstamp.get());
    }
    checkFailed.accept(1);
    return CommitResult.checkFailed();
  }

  /**
   * The same database with every operation returning a {@link CompletableFuture}, whose
   * dependent actions run on Kvasir's completion threads (daemon threads, as many as
   * processors, shared by the process; docs/async.md §2); see {@link AsyncKv}.
   */
  public AsyncKv async() {
    return new AsyncKv(this, CompletionThreads.shared());
  }

  /** As {@link #async()}, running dependent actions on {@code executor}. */
  public AsyncKv async(Executor executor) {
    return new AsyncKv(this, Objects.requireNonNull(executor, "executor"));
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
