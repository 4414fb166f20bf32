package dev.kvasir.spi;

import java.time.Duration;
import java.util.List;

/**
 * What one commit asks of an engine: every check must hold, then the mutations apply in order
 * and the messages are enqueued, all under one new commit versionstamp, or nothing happens.
 *
 * <p>An {@code idempotencyKey} (null for none) makes a retried write safe: an engine records
 * the key of each successful commit in that commit's own transaction, and answers a later write
 * with the same key with the recorded versionstamp instead of applying it again, for at least
 * {@link #IDEMPOTENCY_RETENTION}. A client that lost the answer to a commit (the server died
 * before replying) resends it with the same key. A write whose check failed records nothing:
 * it changed nothing, so running it again is harmless.
 */
public record AtomicWrite(List<Check> checks, List<Mutation> mutations, List<Enqueue> enqueues,
    String idempotencyKey) {
  /** How long engines remember the key of a commit. */
  public static final Duration IDEMPOTENCY_RETENTION = Duration.ofHours(1);
  /** The longest idempotency key: room for a UUID or a ULID with a prefix. */
  public static final int MAX_IDEMPOTENCY_KEY_LENGTH = 64;

  public AtomicWrite {
    checks = List.copyOf(checks);
    mutations = List.copyOf(mutations);
    enqueues = List.copyOf(enqueues);
    if (idempotencyKey != null && (idempotencyKey.isEmpty()
        || idempotencyKey.length() > MAX_IDEMPOTENCY_KEY_LENGTH
        || !idempotencyKey.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
      throw new IllegalArgumentException("an idempotency key is 1 to "
          + MAX_IDEMPOTENCY_KEY_LENGTH + " printable ASCII characters without spaces");
    }
  }

  /** A write without an idempotency key. */
  public AtomicWrite(List<Check> checks, List<Mutation> mutations, List<Enqueue> enqueues) {
    this(checks, mutations, enqueues, null);
  }

  /** This write with {@code key} as its idempotency key. */
  public AtomicWrite withIdempotencyKey(String key) {
    return new AtomicWrite(checks, mutations, enqueues, key);
  }
}
