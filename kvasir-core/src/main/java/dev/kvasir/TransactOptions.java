package dev.kvasir;

import dev.kvasir.base.KvArgumentException;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link Kv#transact} retries a transaction whose checks failed: up to {@code maxAttempts}
 * runs (default 20), waiting between them a random time up to a bound that starts at {@code
 * firstBackoff} (2 ms) and doubles up to {@code maxBackoff} (1 s), so that contending
 * transactions spread out. Immutable.
 */
public final class TransactOptions {
  private static final TransactOptions DEFAULTS =
      new TransactOptions(20, Duration.ofMillis(2), Duration.ofSeconds(1));

  private final int maxAttempts;
  private final Duration firstBackoff;
  private final Duration maxBackoff;

  private TransactOptions(int maxAttempts, Duration firstBackoff, Duration maxBackoff) {
    this.maxAttempts = maxAttempts;
    this.firstBackoff = firstBackoff;
    this.maxBackoff = maxBackoff;
  }

  public static TransactOptions defaults() {
    return DEFAULTS;
  }

  /** @throws KvArgumentException unless {@code attempts > 0} */
  public TransactOptions maxAttempts(int attempts) {
    if (attempts <= 0) {
      throw new KvArgumentException("maxAttempts must be positive: " + attempts);
    }
    return new TransactOptions(attempts, firstBackoff, maxBackoff);
  }

  /** @throws KvArgumentException for a negative backoff or a first one above the largest */
  public TransactOptions backoff(Duration first, Duration max) {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.compareTo(first) < 0) {
      throw new KvArgumentException("backoff needs 0 <= first <= max: " + first + ", " + max);
    }
    return new TransactOptions(maxAttempts, first, max);
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration firstBackoff() {
    return firstBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  @Override
  public String toString() {
    return "TransactOptions[maxAttempts=" + maxAttempts + ", backoff=" + firstBackoff + ".."
        + maxBackoff + "]";
  }
}
