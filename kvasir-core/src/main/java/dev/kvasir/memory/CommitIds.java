package dev.kvasir.memory;

import dev.kvasir.spi.AtomicWrite;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The idempotency keys of recent commits with their versions, forgotten after {@link
 * AtomicWrite#IDEMPOTENCY_RETENTION}. Guarded by the engine's write lock.
 */
final class CommitIds {
  private record Commit(long version, long atMs) {}

  /** In insertion order, which is commit order, so the oldest come first. */
  private final Map<String, Commit> commits = new LinkedHashMap<>();

  /** The version of the commit recorded under {@code key}, or −1. */
  long find(String key) {
    Commit c = commits.get(key);
    return c == null ? -1 : c.version();
  }

  void record(String key, long version, long nowMs) {
    long horizon = nowMs - AtomicWrite.IDEMPOTENCY_RETENTION.toMillis();
    for (Iterator<Commit> it = commits.values().iterator(); it.hasNext(); ) {
      if (it.next().atMs() >= horizon) {
        break;
      }
      it.remove();
    }
    commits.put(key, new Commit(version, nowMs));
  }
}
