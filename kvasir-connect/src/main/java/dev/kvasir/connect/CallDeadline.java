package dev.kvasir.connect;

import java.time.Duration;
import java.util.Optional;

/**
 * When a call, retries included, must have ended ({@code remote.deadlineMs},
 * {@link RemoteConfig}): no attempt starts after it, and an attempt's time limit is cut to what
 * is left. Without a deadline it changes nothing.
 */
final class CallDeadline {
  private static final CallDeadline NONE = new CallDeadline(0, false);

  private final long endNanos;
  private final boolean set;

  private CallDeadline(long endNanos, boolean set) {
    this.endNanos = endNanos;
    this.set = set;
  }

  /** The deadline of a call that starts now. */
  static CallDeadline start(Optional<Duration> limit) {
    return limit.map(d -> new CallDeadline(System.nanoTime() + d.toNanos(), true)).orElse(NONE);
  }

  /** Whether another attempt, after waiting {@code delay}, would still start in time. */
  boolean allowsRetryAfter(Duration delay) {
    return !set || endNanos - System.nanoTime() > delay.toNanos();
  }

  /** {@code call} with its time limit cut to what is left, at least a millisecond. */
  Transport.Call cut(Transport.Call call) {
    if (!set) {
      return call;
    }
    Duration left = Duration.ofNanos(Math.max(endNanos - System.nanoTime(), 1_000_000));
    return left.compareTo(call.timeout()) >= 0 ? call : new Transport.Call(call.uri(),
        call.headers(), call.contentType(), call.body(), left);
  }

  /**
   * What the message of a call given up says of the deadline: that it was reached, when it
   * leaves no room for another attempt after {@code delay}. An attempt cut to the time left
   * may end a little before the deadline itself (its client rounds to milliseconds).
   */
  String reached(Duration delay) {
    return allowsRetryAfter(delay) ? "" : " (remote.deadlineMs reached)";
  }
}
