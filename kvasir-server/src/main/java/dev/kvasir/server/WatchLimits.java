package dev.kvasir.server;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many watch streams may be open: on the whole server, and on one connection. The second
 * keeps a client's watches from taking every HTTP/2 stream its connection may have open at once
 * (a client queues requests beyond that number, so its gets would hang behind its watches).
 * Past either limit a watch is refused with 429 and a message, never left waiting.
 */
final class WatchLimits {
  private final int maxWatches;
  private final int maxPerConnection;
  private final AtomicInteger open = new AtomicInteger();
  private final ConcurrentHashMap<String, AtomicInteger> byConnection = new ConcurrentHashMap<>();

  WatchLimits(int maxWatches, int maxPerConnection) {
    this.maxWatches = maxWatches;
    this.maxPerConnection = maxPerConnection;
  }

  /** Takes a place for a watch on {@code connection}; null if admitted, else why not. */
  String admit(String connection) {
    if (open.incrementAndGet() > maxWatches) {
      open.decrementAndGet();
      return "Too many watch streams: the server has " + maxWatches + " open, its limit"
          + " (kvasir serve --max-watches). Try again later.";
    }
    AtomicInteger mine = byConnection.computeIfAbsent(connection, c -> new AtomicInteger());
    if (mine.incrementAndGet() > maxPerConnection) {
      release(connection);
      return "Too many watch streams on one connection: " + maxPerConnection + " are open, the"
          + " limit that leaves room for the connection's other requests.";
    }
    return null;
  }

  /** Gives back the place of a watch that ended. */
  void release(String connection) {
    open.decrementAndGet();
    byConnection.computeIfPresent(connection, (c, n) -> n.decrementAndGet() <= 0 ? null : n);
  }

  int open() {
    return open.get();
  }
}
