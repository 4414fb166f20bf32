package dev.kvasir.postgres;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids of one writer's {@code commit_log} rows (docs/postgres.md §3): 128 bits drawn once
 * from {@link SecureRandom}, then counted up in the lower half. Two writers' ids meet only if
 * they drew the same upper 64 bits and overlapping runs of the lower, so they are as unique
 * as random ids, without drawing randomness for every commit; and one writer's rows land next
 * to each other in the log's index.
 */
final class CommitIds {
  private final long upper;
  private final AtomicLong lower;

  CommitIds() {
    SecureRandom random = new SecureRandom();
    upper = random.nextLong();
    lower = new AtomicLong(random.nextLong());
  }

  /** A fresh id. */
  UUID next() {
    return new UUID(upper, lower.incrementAndGet());
  }
}
