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
 * <p>A body takes its memory at once or is refused with 503, which clients retry; one body
 * larger than the limit goes when nothing else is held. A read waits its turn, first come first
 * served, for as long as its caller allows; a read goes whenever no other read holds memory,
 * however much the bodies hold, so that a read larger than the limit is not starved by a
 * steady flow of writes. So at most the limit (or one body larger than it) and one read are
 * held.
 */
final class BodyMemory {
  private static final Logger LOG = LoggerFactory.getLogger(BodyMemory.class);
  private static final CompletableFuture<Void> TAKEN = CompletableFuture.completedFuture(null);
  private final ThrottledWarning full = new ThrottledWarning(LOG, Duration.ofMinutes(1));
  private final long limit;
  private long held; // guarded by this
  private long heldByReads; // guarded by this
  /** Reads waiting for memory, in the order they came. Guarded by this. */
  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

  private record Waiting(long bytes, CompletableFuture<Void> granted) {}

  BodyMemory(long limit) {
    this.limit = limit;
  }

  /** Sets {@code bytes} aside for a body if they fit. */
  synchronized boolean takeForBody(long bytes) {
    if (held > 0 && held + bytes > limit) {
      return false;
    }
    held += bytes;
    return true;
  }

  /** Gives back bytes taken for a body, and lets the reads that now fit go on. */
  void giveForBody(long bytes) {
    List<Waiting> granted;
    synchronized (this) {
      held -= bytes;
      granted = grantWaiting();
    }
    complete(granted);
  }

  /**
   * Sets {@code bytes} aside for a read once they fit and no read that came earlier is still
   * waiting. A caller that stops waiting fails the future (a timeout) and calls {@link
   * #abandon}.
   */
  CompletableFuture<Void> takeForRead(long bytes) {
    synchronized (this) {
      if (waiting.isEmpty() && fitsRead(bytes)) {
        held += bytes;
        heldByReads += bytes;
        return TAKEN;
      }
      Waiting w = new Waiting(bytes, new CompletableFuture<>());
      waiting.add(w);
      return w.granted();
    }
  }

  /** Sets {@code bytes} aside for a read whether they fit or not: they are already in use. */
  synchronized void takeAnywayForRead(long bytes) {
    held += bytes;
    heldByReads += bytes;
  }

  /** Gives back bytes taken for a read, and lets the reads that now fit go on. */
  void giveForRead(long bytes) {
    List<Waiting> granted;
    synchronized (this) {
      held -= bytes;
      heldByReads -= bytes;
      granted = grantWaiting();
    }
    complete(granted);
  }

  /**
   * Takes a read that stopped waiting out of the line (the reads behind it may now go on), or
   * gives back what was granted to it meanwhile.
   */
  void abandon(CompletableFuture<Void> read) {
    Waiting gone = null;
    List<Waiting> granted;
    synchronized (this) {
      for (Waiting w : waiting) {
        if (w.granted() == read) {
          gone = w;
          break;
        }
      }
      if (gone == null) {
        return; // granted: its completion failed, and complete gave it back
      }
      waiting.remove(gone);
      granted = grantWaiting();
    }
    complete(granted);
  }

  private boolean fitsRead(long bytes) { // guarded by this
    return heldByReads == 0 || held + bytes <= limit;
  }

  /** Takes memory for the waiting reads that fit now, in order. Guarded by this. */
  private List<Waiting> grantWaiting() {
    if (waiting.isEmpty()) {
      return List.of(); // nearly always: no list made for each give on the read path
    }
    List<Waiting> granted = new ArrayList<>();
    while (!waiting.isEmpty() && fitsRead(waiting.peek().bytes())) {
      Waiting w = waiting.poll();
      held += w.bytes();
      heldByReads += w.bytes();
      granted.add(w);
    }
    return granted;
  }

  /** Lets the granted reads go on, outside the lock: each may start reading at once. */
  private void complete(List<Waiting> granted) {
    for (Waiting w : granted) {
      if (!w.granted().complete(null)) { // it stopped waiting just before
        giveForRead(w.bytes());
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
  Refused refusal() {
    full.warn("Requests are refused with 503: the request bodies and reads held in memory"
        + " reached the limit of {} bytes (--max-body-memory)", limit);
    return new Refused(503, "The server holds as many request bodies and"
        + " answers in memory as it may (" + (limit >> 20) + " MiB); try again shortly.");
  }
}
