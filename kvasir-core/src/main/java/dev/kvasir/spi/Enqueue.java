package dev.kvasir.spi;

import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.ValueEncoding;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A queue message of an atomic write (docs/queues.md): the V8 payload, when it becomes
 * due, the keys that receive the payload if every delivery fails, and the delays in milliseconds
 * between attempts ({@code null} for Deno's default).
 */
public record Enqueue(
    EncodedValue payload,
    Instant deadline,
    List<RawKey> keysIfUndelivered,
    List<Integer> backoffSchedule) {
  /** Deno's default backoff schedule in milliseconds: six attempts in all. */
  public static final List<Integer> DEFAULT_BACKOFF = List.of(100, 1000, 5000, 30000, 60000);

  public Enqueue {
    Objects.requireNonNull(payload, "payload");
    if (!payload.is(ValueEncoding.V8)) {
      throw new IllegalArgumentException("queue payloads are V8-encoded, got encoding " + payload.code());
    }
    Objects.requireNonNull(deadline, "deadline");
    keysIfUndelivered = List.copyOf(keysIfUndelivered);
    backoffSchedule = backoffSchedule == null ? null : List.copyOf(backoffSchedule);
  }

  /** The schedule actually used: the given one, or {@link #DEFAULT_BACKOFF}. */
  public List<Integer> effectiveBackoff() {
    return backoffSchedule == null ? DEFAULT_BACKOFF : backoffSchedule;
  }
}
