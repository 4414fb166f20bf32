package dev.kvasir;

import dev.kvasir.base.KvLimitException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Options of a queue message (docs/queues.md). Immutable; each setter returns a copy:
 *
 * <pre>{@code
 * EnqueueOptions.defaults()
 *     .delay(Duration.ofSeconds(5))                       // due in 5 s (0 to 30 days)
 *     .keysIfUndelivered(List.of(KvKey.of("failed", id)))  // gets the value if all attempts fail
 *     .backoffSchedule(List.of(100, 1000))                 // ms between attempts: 3 in all
 * }</pre>
 *
 * Without a backoff schedule Deno's default applies: 100, 1000, 5000, 30000 and 60000 ms.
 */
public final class EnqueueOptions {
  private static final EnqueueOptions DEFAULTS =
      new EnqueueOptions(Duration.ZERO, List.of(), null);

  private final Duration delay;
  private final List<KvKey> keysIfUndelivered;
  private final List<Integer> backoffSchedule;

  private EnqueueOptions(
      Duration delay, List<KvKey> keysIfUndelivered, List<Integer> backoffSchedule) {
    this.delay = delay;
    this.keysIfUndelivered = keysIfUndelivered;
    this.backoffSchedule = backoffSchedule;
  }

  public static EnqueueOptions defaults() {
    return DEFAULTS;
  }

  /** @throws KvLimitException unless 0 ≤ delay ≤ 30 days */
  public EnqueueOptions delay(Duration delay) {
    Limits.checkDelay(delay);
    return new EnqueueOptions(delay, keysIfUndelivered, backoffSchedule);
  }

  public EnqueueOptions keysIfUndelivered(List<KvKey> keys) {
    return new EnqueueOptions(delay, List.copyOf(keys), backoffSchedule);
  }

  /**
   * Milliseconds to wait before each retry; an empty list means one attempt only.
   *
   * @throws KvLimitException for more than 5 intervals or one outside 0 to 3 600 000 ms
   */
  public EnqueueOptions backoffSchedule(List<Integer> intervalsMs) {
    List<Integer> copy = List.copyOf(intervalsMs);
    Limits.checkBackoffSchedule(copy);
    return new EnqueueOptions(delay, keysIfUndelivered, copy);
  }

  public Duration delay() {
    return delay;
  }

  public List<KvKey> keysIfUndelivered() {
    return keysIfUndelivered;
  }

  /** The schedule set, or {@code null} for Deno's default. */
  public List<Integer> backoffSchedule() {
    return backoffSchedule;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EnqueueOptions other && delay.equals(other.delay)
        && keysIfUndelivered.equals(other.keysIfUndelivered)
        && Objects.equals(backoffSchedule, other.backoffSchedule);
  }

  @Override
  public int hashCode() {
    return Objects.hash(delay, keysIfUndelivered, backoffSchedule);
  }

  @Override
  public String toString() {
    return "EnqueueOptions[delay=" + delay + ", keysIfUndelivered=" + keysIfUndelivered
        + ", backoffSchedule=" + backoffSchedule + "]";
  }
}
