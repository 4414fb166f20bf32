package dev.kvasir.connect;

import dev.kvasir.base.KvUnavailableException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The atomic writes a client has sent and whose answers it still waits for. Closing the client
 * waits for them, so that a write the server applied is reported applied, not aborted as
 * "closed"; one still unanswered when the wait ends is reported as possibly applied
 * (docs/kv-connect.md §11).
 */
final class WritesInFlight {
  private final Set<CompletableFuture<?>> unanswered = ConcurrentHashMap.newKeySet();

  /**
   * Counts a write in flight, then sends it: a close that begins after the count waits for it,
   * and one that began before refuses to send it. The future completes with the answer.
   */
  <T> CompletableFuture<T> track(Supplier<CompletableFuture<T>> send) {
    CompletableFuture<T> tracked = new CompletableFuture<>();
    unanswered.add(tracked);
    tracked.whenComplete((r, e) -> unanswered.remove(tracked));
    CompletableFuture<T> answer;
    try {
      answer = send.get();
    } catch (RuntimeException e) {
      tracked.completeExceptionally(e);
      return tracked;
    }
    answer.whenComplete((r, e) -> {
      if (e != null) {
        tracked.completeExceptionally(e);
      } else {
        tracked.complete(r);
      }
    });
    return tracked;
  }

  /**
   * Waits up to {@code limit} for every write in flight to be answered; fails the ones still
   * unanswered then with {@link KvUnavailableException#maybeApplied()}.
   */
  void awaitAnswers(Duration limit) {
    CompletableFuture<?>[] waited = unanswered.toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(waited).get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // failed writes are answered too; the rest are given up below
    }
    for (CompletableFuture<?> write : waited) {
      write.completeExceptionally(new KvUnavailableException("the client was closed before the"
          + " server answered this write; it may have been applied", true, null));
    }
  }
}
