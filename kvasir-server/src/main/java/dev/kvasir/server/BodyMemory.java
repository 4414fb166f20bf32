package dev.kvasir.server;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory the server may hold at once for request bodies and for snapshot reads, from the
 * time a body is read or a read begins until its request is answered or its answer is sent
 * (docs/operations.md §10). Without it, a client that sends many large requests, or asks for
 * many large answers and does not read them, fills the heap, and an {@link OutOfMemoryError} on
 * one of Jetty's threads leaves the server unable to read any connection.
 *
 * <p>A body takes its memory at once or is refused with 503, which clients retry. A read waits
 * its turn, first come first served, for as long as its caller allows.
 */
final class BodyMemory {
  private static final Logger LOG = LoggerFactory.getLogger(BodyMemory.class);
  private static final CompletableFuture<Void> TAKEN = CompletableFuture.completedFuture(null);
  private final ThrottledWarning full = new ThrottledWarning(LOG, Duration.ofMinutes(1));
  private final long limit;
  private long held; // guarded by this
  /** Reads waiting for memory, in the order they came. Guarded by this. */
  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

  private record Waiting(long bytes, CompletableFuture<Void> granted) {}

  BodyMemory(long limit) {
    this.limit = limit;
  }

  /**
   * Sets {@code bytes} aside if they fit. When nothing is held they always do, so that one
   * request larger than the whole limit still goes through alone.
   */
  synchronized boolean take(long bytes) {
    if (held > 0 && held + bytes > limit) {
      return false;
    }
    held += bytes;
    return true;
  }

  /** Sets {@code bytes} aside whether they fit or not: they are already in use. */
  synchronized void takeAnyway(long bytes) {
    held += bytes;
  }

  /**
   * Sets {@code bytes} aside once they fit and no read that came earlier is still waiting. A
   * caller that stops waiting fails the future (a timeout); memory granted to it after that is
   * given back.
   */
  CompletableFuture<Void> takeWhenFree(long bytes) {
    synchronized (this) {
      if (waiting.isEmpty() && take(bytes)) {
        return TAKEN;
      }
      Waiting w = new Waiting(bytes, new CompletableFuture<>());
      waiting.add(w);
      return w.granted();
    }
  }

  /** Gives back bytes taken before, and lets the reads that now fit go on. */
  void give(long bytes) {
    List<Waiting> granted = new ArrayList<>();
    synchronized (this) {
      held -= bytes;
      while (!waiting.isEmpty()
          && (held == 0 || held + waiting.peek().bytes() <= limit)) {
        Waiting w = waiting.poll();
        held += w.bytes();
        granted.add(w);
      }
    }
    for (Waiting w : granted) {
      if (!w.granted().complete(null)) { // it stopped waiting
        give(w.bytes());
      }
    }
  }

  /** The bytes held now. */
  synchronized long held() {
    return held;
  }

  long limit() {
    return limit;
  }

  /** The answer to a request that found no room: 503, which clients retry. */
  ConnectHandler.Refused refusal() {
    full.warn("Requests are refused with 503: the request bodies and reads held in memory"
        + " reached the limit of {} bytes (--max-body-memory)", limit);
    return new ConnectHandler.Refused(503, "The server holds as many request bodies and"
        + " answers in memory as it may (" + (limit >> 20) + " MiB); try again shortly.");
  }
}
