package dev.kvasir;

import dev.kvasir.base.Consistency;
import dev.kvasir.spi.ReadRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Kv} whose operations return {@link CompletableFuture}s (docs/async.md): {@code
 * kv.async()}. No thread waits for an answer: writes join the engine's group commit, SQLite and
 * PostgreSQL reads wait on their own pools (one thread per connection), a remote database's
 * requests are multiplexed over HTTP/2, and the memory engine answers at once.
 *
 * <pre>{@code
 * AsyncKv async = kv.async();
 * async.get(KvKey.of("users", "alice"))
 *     .thenApply(e -> e.value(User.class))
 *     .thenAccept(user -> …);
 * }</pre>
 *
 * <ul>
 *   <li><b>Threads.</b> The futures complete on the executor given to {@code kv.async(…)}
 *       (Kvasir's completion threads by default), never on an engine's own thread, so a
 *       slow callback cannot hold up commits. As always with {@code CompletableFuture}, a
 *       callback attached to a future that has completed already runs on the attaching thread.
 *   <li><b>Errors.</b> An invalid argument or a limit fails the returned future rather than
 *       throwing; {@code join()} wraps it in a {@code CompletionException}.
 *   <li><b>Cancelling</b> a future stops nobody waiting for it, not the operation: a write
 *       already sent may still commit. Use a check or a transaction when that matters.
 * </ul>
 *
 * Thread-safe.
 */
public final class AsyncKv {
  private final Kv kv;
  private final Executor executor;

  AsyncKv(Kv kv, Executor executor) {
    this.kv = kv;
    this.executor = executor;
  }

  /** The blocking database this wraps. */
  public Kv blocking() {
    return kv;
  }

  /** The entry at {@code key}; if absent, an entry whose value and versionstamp are null. */
  public CompletableFuture<KvEntry> get(KvKey key) {
    return getMany(List.of(key)).thenApply(entries -> entries.get(0));
  }

  public CompletableFuture<KvEntry> get(KvKey key, Consistency consistency) {
    return getMany(List.of(key), consistency).thenApply(entries -> entries.get(0));
  }

  /** The entries of up to 10 keys, in order, from one snapshot. */
  public CompletableFuture<List<KvEntry>> getMany(List<KvKey> keys) {
    return getMany(keys, Consistency.STRONG);
  }

  public CompletableFuture<List<KvEntry>> getMany(List<KvKey> keys, Consistency consistency) {
    return started(() -> {
      List<ReadRange> ranges = kv.readRanges(keys);
      return kv.readAsync(ranges, consistency)
          .thenApplyAsync(read -> kv.entries(keys, read), executor);
    });
  }

  /** The entries of any number of keys, ten to a snapshot; see {@link Kv#getAll}. */
  public CompletableFuture<List<KvEntry>> getAll(List<KvKey> keys) {
    List<CompletableFuture<List<KvEntry>>> parts = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += Limits.MAX_READ_RANGES) {
      parts.add(getMany(keys.subList(from, Math.min(keys.size(),
          from + Limits.MAX_READ_RANGES))));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(done -> {
      List<KvEntry> out = new ArrayList<>(keys.size());
      parts.forEach(p -> out.addAll(p.join()));
      return out;
    });
  }

  /**
   * Every entry the selection and options give (mind {@code limit}: without one, the whole
   * selection is read into memory), each batch read without a thread waiting.
   */
  public CompletableFuture<List<KvEntry>> list(ListSelector selector, ListOptions options) {
    return started(() -> kv.list(selector, options).remainingAsync(executor));
  }

  /** Sets {@code key}; see {@link Kv#set(KvKey, Object)}. */
  public CompletableFuture<CommitResult> set(KvKey key, @Nullable Object value) {
    return started(() -> commit(kv.atomic().set(key, value)));
  }

  public CompletableFuture<CommitResult> set(KvKey key, @Nullable Object value,
      Duration expireIn) {
    return started(() -> commit(kv.atomic().set(key, value, expireIn)));
  }

  public CompletableFuture<CommitResult> delete(KvKey key) {
    return started(() -> commit(kv.atomic().delete(key)));
  }

  /** Adds {@code n} (negative: subtracts) to the u64 at {@code key}; see {@link Kv#sum}. */
  public CompletableFuture<CommitResult> sum(KvKey key, long n) {
    return started(() -> commit(kv.atomic().sum(key, n)));
  }

  public CompletableFuture<CommitResult> min(KvKey key, long n) {
    return started(() -> commit(kv.atomic().min(key, n)));
  }

  public CompletableFuture<CommitResult> max(KvKey key, long n) {
    return started(() -> commit(kv.atomic().max(key, n)));
  }

  public CompletableFuture<CommitResult> enqueue(@Nullable Object value) {
    return started(() -> commit(kv.atomic().enqueue(value)));
  }

  public CompletableFuture<CommitResult> enqueue(@Nullable Object value,
      EnqueueOptions options) {
    return started(() -> commit(kv.atomic().enqueue(value, options)));
  }

  /**
   * Commits {@code operation}, built with {@code kv.atomic()}; an operation commits at most
   * once. The future holds {@code ok() == false} if a check failed.
   */
  public CompletableFuture<CommitResult> commit(AtomicOperation operation) {
    return started(() -> kv.writeAsync(operation.toWrite()).thenApplyAsync(r -> r, executor));
  }

  /** Runs {@code start}; what it throws fails the future instead. */
  private static <T> CompletableFuture<T> started(Supplier<CompletableFuture<T>> start) {
    try {
      return start.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
