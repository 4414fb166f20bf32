package dev.kvasir.engine;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The rules of one atomic write (docs/atomic.md), carried out on an engine's {@link WriteTx}
 * in denokv's order: a replay answered from its idempotency record, the checks, one new
 * version, the mutations in order, the enqueues, the idempotency record. The only place that
 * knows what each mutation kind does.
 */
public final class Commit {
  private Commit() {}

  /**
   * What a commit did: its versionstamp, the keys it wrote (for watchers), the earliest expiry
   * it wrote (for the sweep; {@code Long.MAX_VALUE} if none) and whether it enqueued. A replay
   * of an earlier commit wrote nothing.
   */
  public record Applied(Versionstamp versionstamp, List<RawKey> keys, long earliestExpiry,
      boolean enqueued) {
    /** Whether any entry written expires. */
    public boolean expiring() {
      return earliestExpiry != Long.MAX_VALUE;
    }
  }

  /**
   * Applies {@code write} in {@code tx}. On an exception (a sum on a string) the caller rolls
   * the transaction back.
   *
   * @return what it did, or empty if a check failed (then it wrote nothing)
   * @throws dev.kvasir.base.KvTypeException if a sum, min or max meets a value of the wrong type
   */
  public static <X extends Exception> Optional<Applied> apply(WriteTx<X> tx, AtomicWrite write,
      long nowMs) throws X {
    String id = write.idempotencyKey();
    if (id != null) {
      long recorded = tx.recordedCommit(id);
      if (recorded >= 0) { // applied before: answered as it was then, not applied again
        return Optional.of(new Applied(Versionstamp.ofVersion(recorded), List.of(),
            Long.MAX_VALUE, false));
      }
    }
    if (!checksHold(tx, write.checks(), nowMs)) {
      return Optional.empty();
    }
    long version = tx.nextVersion(Versions.commitStep());
    Versionstamp stamp = Versionstamp.ofVersion(version);
    List<RawKey> keys = new ArrayList<>(write.mutations().size());
    long earliestExpiry = Long.MAX_VALUE;
    for (Mutation m : write.mutations()) {
      RawKey key = m.keyIn(stamp);
      long expiry = switch (m.kind()) {
        case SET, SET_VERSIONSTAMPED_KEY -> {
          tx.put(key, m.value(), version, Expiry.of(m.expireAt()));
          yield Expiry.of(m.expireAt());
        }
        case DELETE -> {
          tx.delete(key);
          yield Expiry.NEVER;
        }
        case SUM, MIN, MAX -> { // they leave no expiry, even where the entry had one
          StoredValue before = tx.get(key, nowMs);
          tx.put(key, Arithmetic.apply(m, before == null ? null : before.value()), version,
              Expiry.NEVER);
          yield Expiry.NEVER;
        }
      };
      if (expiry != Expiry.NEVER) {
        earliestExpiry = Math.min(earliestExpiry, expiry);
      }
      keys.add(key);
    }
    for (Enqueue e : write.enqueues()) {
      tx.enqueue(message(e));
    }
    if (id != null) {
      tx.recordCommit(id, version, nowMs);
    }
    return Optional.of(new Applied(stamp, keys, earliestExpiry, !write.enqueues().isEmpty()));
  }

  /** Whether every check holds: the live versionstamp equals the expected one (null: absent). */
  public static <X extends Exception> boolean checksHold(WriteTx<X> tx, List<Check> checks,
      long nowMs) throws X {
    if (checks.isEmpty()) {
      return true;
    }
    List<RawKey> keys = new ArrayList<>(checks.size());
    for (Check c : checks) {
      keys.add(c.key());
    }
    List<StoredValue> current = tx.getAll(keys, nowMs);
    for (int i = 0; i < checks.size(); i++) {
      StoredValue row = current.get(i);
      Versionstamp stamp = row == null ? null : Versionstamp.ofVersion(row.version());
      if (!Objects.equals(stamp, checks.get(i).versionstamp())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The stored form of a new message: a fresh id, and the default backoff schedule written out
   * when none was given, as Deno stores it (docs/queues.md §2).
   */
  public static QueuedMessage message(Enqueue e) {
    return new QueuedMessage(UUID.randomUUID().toString(), e.deadline().toEpochMilli(),
        e.payload(), e.effectiveBackoff(), e.keysIfUndelivered());
  }
}
