package dev.kvasir;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.value.KvU64;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One attempt of a {@link Kv#transact} transaction (docs/atomic.md §8): reads go to the
 * database and each key read becomes a check that its versionstamp is still the one seen;
 * writes are buffered and committed with those checks in one atomic operation. Reads do not
 * see the transaction's own writes, as in Deno's atomic operations. A list read checks the
 * entries it returned, not that no key was added to the range meanwhile. Not thread-safe;
 * valid only inside the function it is given to.
 */
public final class KvTransaction {
  private final Kv kv;
  private final AtomicOperation writes;
  /** The versionstamp each read key had when first read (null: absent). */
  private final Map<KvKey, KvEntry> seen = new HashMap<>();

  KvTransaction(Kv kv) {
    this.kv = kv;
    this.writes = kv.atomic();
  }

  /** The entry at {@code key}, checked at commit. */
  public KvEntry get(KvKey key) {
    return getMany(List.of(key)).get(0);
  }

  /** The entries of up to 10 keys from one snapshot, each checked at commit. */
  public List<KvEntry> getMany(List<KvKey> keys) {
    List<KvEntry> read = kv.getMany(keys);
    read.forEach(this::saw);
    return read;
  }

  /**
   * The entries selected (at most {@code options.limit()}, which is required), each checked at
   * commit; a key added to the range meanwhile is not noticed.
   */
  public List<KvEntry> list(ListSelector selector, ListOptions options) {
    if (options.limit() <= 0) {
      throw new KvArgumentException("a transaction lists with a limit, as each"
          + " entry read becomes a check (at most " + Limits.MAX_CHECKS + ")");
    }
    List<KvEntry> out = new ArrayList<>();
    kv.list(selector, options).forEach(e -> {
      saw(e);
      out.add(e);
    });
    return out;
  }

  public KvTransaction set(KvKey key, @Nullable Object value) {
    writes.set(key, value);
    return this;
  }

  public KvTransaction set(KvKey key, @Nullable Object value, Duration expireIn) {
    writes.set(key, value, expireIn);
    return this;
  }

  public KvTransaction delete(KvKey key) {
    writes.delete(key);
    return this;
  }

  /** Adds {@code n} (may be negative) to the u64 at {@code key}; see {@link Kv#sum}. */
  public KvTransaction sum(KvKey key, long n) {
    writes.sum(key, n);
    return this;
  }

  public KvTransaction sum(KvKey key, KvU64 n) {
    writes.sum(key, n);
    return this;
  }

  public KvTransaction enqueue(@Nullable Object value) {
    writes.enqueue(value);
    return this;
  }

  public KvTransaction enqueue(@Nullable Object value, EnqueueOptions options) {
    writes.enqueue(value, options);
    return this;
  }

  private void saw(KvEntry e) {
    seen.putIfAbsent(e.key(), e);
  }

  /** Commits the writes with a check for every key read; false if a check failed. */
  CommitResult commit() {
    for (KvEntry e : seen.values()) {
      writes.check(e);
    }
    return writes.commit();
  }
}
