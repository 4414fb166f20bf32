package dev.kvasir;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.V8;
import dev.kvasir.value.ValueEncoding;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Checks, mutations and enqueues that commit together or not at all (docs/atomic.md):
 *
 * <pre>{@code
 * CommitResult r = kv.atomic()
 *     .check(entry)                                   // unchanged since read, or no commit
 *     .set(KvKey.of("users", "alice"), user)
 *     .sum(KvKey.of("stats", "edits"), 1)             // KvU64, wraps modulo 2^64
 *     .commit();
 * }</pre>
 *
 * Every check runs first; if one fails, {@code commit()} returns {@code ok() == false} and
 * nothing changes. Otherwise the mutations apply in the order added (a later one sees the
 * earlier ones) under one versionstamp. If a mutation fails (a sum on a string), the commit
 * throws and nothing of it is applied. Arguments are encoded and checked as they are added, so
 * a bad key or value fails at the call that added it. Not thread-safe; use once.
 */
public final class AtomicOperation {
  private final Kv kv;
  private final List<Check> checks = new ArrayList<>();
  private final List<Mutation> mutations = new ArrayList<>();
  private final List<Enqueue> enqueues = new ArrayList<>();
  private boolean committed;

  AtomicOperation(Kv kv) {
    this.kv = kv;
  }

  /** Requires {@code entry}'s key to still have the entry's versionstamp (or to still not exist). */
  public AtomicOperation check(KvEntry entry) {
    return check(entry.key(), entry.versionstamp());
  }

  /** Requires the key's versionstamp to be {@code versionstamp}; {@code null}: must not exist. */
  public AtomicOperation check(KvKey key, @Nullable Versionstamp versionstamp) {
    Limits.checkWriteKey(key);
    checks.add(new Check(key.raw(), versionstamp));
    return this;
  }

  /** Sets {@code key} to {@code value}; see {@link Kv#set(KvKey, Object)}. */
  public AtomicOperation set(KvKey key, @Nullable Object value) {
    return set(key, value, null);
  }

  /** Sets {@code key} to {@code value}, to expire after {@code expireIn} ({@code null}: never). */
  public AtomicOperation set(KvKey key, @Nullable Object value,
      @Nullable Duration expireIn) {
    Limits.checkWriteKey(key);
    EncodedValue encoded = encode(value);
    mutations.add(new Mutation.Set(key.raw(), encoded, expireAt(expireIn)));
    return this;
  }

  /**
   * Sets the key {@code prefix + [versionstamp]}, whose last part is a string holding this
   * commit's versionstamp (Deno's {@code commitVersionstamp()}); such keys sort in commit order.
   */
  public AtomicOperation setVersionstamped(KvKey prefix, @Nullable Object value) {
    return setVersionstamped(prefix, value, null);
  }

  /** As {@link #setVersionstamped(KvKey, Object)}, expiring after {@code expireIn}. */
  public AtomicOperation setVersionstamped(KvKey prefix, @Nullable Object value,
      @Nullable Duration expireIn) {
    Limits.checkWriteKey(prefix);
    EncodedValue encoded = encode(value);
    mutations.add(
        new Mutation.SetVersionstampedKey(prefix.raw(), encoded, expireAt(expireIn)));
    return this;
  }

  /** Deletes {@code key}; a missing key is fine. */
  public AtomicOperation delete(KvKey key) {
    Limits.checkWriteKey(key);
    mutations.add(new Mutation.Delete(key.raw()));
    return this;
  }

  /** Adds {@code n} to the u64 at {@code key} (missing: {@code n}), modulo 2^64. */
  public AtomicOperation sum(KvKey key, KvU64 n) {
    Limits.checkWriteKey(key);
    mutations.add(new Mutation.Sum(key.raw(), EncodedValue.of(n)));
    return this;
  }

  /**
   * Adds {@code n} to the u64 at {@code key}: a negative {@code n} subtracts. u64 arithmetic
   * wraps around as Deno's does, so 0 − 1 is 2^64 − 1; a counter that must stop at zero checks
   * first ({@link Kv#transact}).
   */
  public AtomicOperation sum(KvKey key, long n) {
    return sum(key, KvU64.ofUnsignedBits(n)); // two's complement: 2^64 + n for a negative n
  }

  /**
   * Adds to a stored JS number or bigint, as Deno's {@code mutate({type: "sum", value})} does:
   * {@code Double}/{@code Integer}/{@code Long} add as numbers, {@code BigInteger} as a bigint;
   * a missing key takes the operand; mixing number and bigint fails the commit.
   */
  public AtomicOperation sumNumber(KvKey key, Number n) {
    Limits.checkWriteKey(key);
    Object operand = n instanceof BigInteger ? n : Double.valueOf(n.doubleValue());
    mutations.add(new Mutation.Sum(
        key.raw(), EncodedValue.wrap(ValueEncoding.V8, V8.serialize(operand))));
    return this;
  }

  /** Keeps the unsigned minimum of the u64 at {@code key} and {@code n} (missing: {@code n}). */
  public AtomicOperation min(KvKey key, KvU64 n) {
    Limits.checkWriteKey(key);
    mutations.add(new Mutation.Min(key.raw(), EncodedValue.of(n)));
    return this;
  }

  public AtomicOperation min(KvKey key, long n) {
    return min(key, KvU64.of(n));
  }

  /** Keeps the unsigned maximum of the u64 at {@code key} and {@code n} (missing: {@code n}). */
  public AtomicOperation max(KvKey key, KvU64 n) {
    Limits.checkWriteKey(key);
    mutations.add(new Mutation.Max(key.raw(), EncodedValue.of(n)));
    return this;
  }

  public AtomicOperation max(KvKey key, long n) {
    return max(key, KvU64.of(n));
  }

  /** Enqueues {@code value}, due now; see {@link Kv#listenQueue}. */
  public AtomicOperation enqueue(@Nullable Object value) {
    return enqueue(value, EnqueueOptions.defaults());
  }

  /** Enqueues {@code value} with a delay, dead-letter keys and backoff schedule. */
  public AtomicOperation enqueue(@Nullable Object value, EnqueueOptions options) {
    byte[] payload = V8.serialize(value, kv.mapper());
    Limits.checkPayload(payload.length);
    List<RawKey> keys = new ArrayList<>();
    for (KvKey k : options.keysIfUndelivered()) {
      Limits.checkDeadLetterKey(k.encodedLength());
      keys.add(k.raw());
    }
    enqueues.add(new Enqueue(EncodedValue.wrap(ValueEncoding.V8, payload),
        Instant.now().plus(options.delay()), keys, options.backoffSchedule()));
    return this;
  }

  /**
   * Commits. An operation commits at most once.
   *
   * @return {@code ok() == false} if a check failed, else the commit's versionstamp
   * @throws KvLimitException if the operation as a whole exceeds a limit; nothing changes
   * @throws KvTypeException if a sum, min or max meets a non-u64 value; nothing changes
   */
  public CommitResult commit() {
    return kv.write(toWrite());
  }

  /**
   * Commits without waiting; see {@link AsyncKv#commit(AtomicOperation)}, which this is with
   * {@code kv.async()}.
   */
  public CompletableFuture<CommitResult> commitAsync() {
    return kv.async().commit(this);
  }

  /** What committing sends to the engine, checked against the limits; once only. */
  AtomicWrite toWrite() {
    if (committed) {
      throw new IllegalStateException("this atomic operation was already committed");
    }
    committed = true;
    AtomicWrite write = new AtomicWrite(checks, mutations, enqueues);
    Limits.checkAtomicWrite(write);
    return write;
  }

  private EncodedValue encode(Object value) {
    // An EncodedValue is stored as it is: bytes copied from elsewhere keep their exact form.
    EncodedValue encoded = value instanceof EncodedValue e ? e
        : EncodedValue.of(value, kv.mapper());
    Limits.checkValue(encoded.size());
    return encoded;
  }

  private static Instant expireAt(Duration expireIn) {
    if (expireIn == null) {
      return null;
    }
    if (expireIn.isNegative()) {
      throw new KvArgumentException("expireIn must not be negative: " + expireIn);
    }
    try {
      return Instant.now().plus(Objects.requireNonNull(expireIn));
    } catch (ArithmeticException | java.time.DateTimeException e) {
      throw new KvLimitException("expireIn is too large: " + expireIn);
    }
  }
}
