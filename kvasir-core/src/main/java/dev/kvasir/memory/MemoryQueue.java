package dev.kvasir.memory;

import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The queue of a {@link MemoryEngine}: waiting messages ordered by due time (ties by enqueue
 * order), and the ids of those handed out and not yet finished. Guarded by the engine's lock.
 */
final class MemoryQueue {
  private final TreeSet<Message> waiting = new TreeSet<>();
  private final Set<Long> running = new HashSet<>();
  private long nextId;

  record Message(long id, long dueMs, EncodedValue payload, List<RawKey> keysIfUndelivered,
      List<Integer> backoff) implements Comparable<Message> {
    @Override
    public int compareTo(Message other) {
      int c = Long.compare(dueMs, other.dueMs);
      return c != 0 ? c : Long.compare(id, other.id);
    }
  }

  void add(EncodedValue payload, long dueMs, List<RawKey> keysIfUndelivered,
      List<Integer> backoff) {
    waiting.add(new Message(nextId++, dueMs, payload, keysIfUndelivered, backoff));
  }

  /** The due time of the first waiting message, or {@code Long.MAX_VALUE} if none. */
  long nextDueMs() {
    return waiting.isEmpty() ? Long.MAX_VALUE : waiting.first().dueMs();
  }

  Message take() {
    Message m = waiting.pollFirst();
    running.add(m.id());
    return m;
  }

  /** Ends a delivery; false if it had already ended. */
  boolean finish(Message m) {
    return running.remove(m.id());
  }

  /** Waits the first remaining backoff interval, then tries again with the rest. */
  void retry(Message m, long now) {
    List<Integer> backoff = m.backoff();
    waiting.add(new Message(m.id(), now + backoff.get(0), m.payload(), m.keysIfUndelivered(),
        backoff.subList(1, backoff.size())));
  }
}
