package dev.kvasir.engine;

import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.util.List;

/**
 * A queue message as engines store it (docs/queues.md §2): an id, when it is due, the V8
 * payload, the backoff intervals still left in milliseconds, and the keys that receive the
 * payload once none is left.
 */
public record QueuedMessage(String id, long dueMs, EncodedValue payload, List<Integer> backoff,
    List<RawKey> keysIfUndelivered) {
  public QueuedMessage {
    backoff = List.copyOf(backoff);
    keysIfUndelivered = List.copyOf(keysIfUndelivered);
  }
}
