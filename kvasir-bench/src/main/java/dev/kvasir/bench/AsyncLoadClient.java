package dev.kvasir.bench;

import dev.kvasir.AsyncKv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.value.KvU64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One client of {@link ServerLoad}'s {@code remote-async} driver: the same mix as its threads,
 * on the asynchronous API, each operation started when the one before completes. No thread
 * belongs to the client; its operations run on whichever thread completed the one before.
 */
final class AsyncLoadClient {
  private final AsyncKv kv;
  private final ServerLoad.Client client;
  private final AtomicLongArray increments;
  private final Runnable finished;

  private AsyncLoadClient(AsyncKv kv, ServerLoad.Client client, AtomicLongArray increments,
      Runnable finished) {
    this.kv = kv;
    this.client = client;
    this.increments = increments;
    this.finished = finished;
  }

  /** Starts the client's first operation; {@code finished} runs once the run is over. */
  static void start(AsyncKv kv, ServerLoad.Client client, AtomicLongArray increments,
      Runnable finished) {
    new AsyncLoadClient(kv, client, increments, finished).next();
  }

  /**
   * Starts operations until one is still under way, which then calls this again. An operation
   * that completed at once loops here instead, so the stack does not grow with them.
   */
  private void next() {
    for (long start; client.open(start = System.nanoTime()); ) {
      CompletableFuture<Integer> operation;
      try {
        operation = operation(ThreadLocalRandom.current());
      } catch (RuntimeException e) {
        operation = CompletableFuture.failedFuture(e);
      }
      long started = start;
      boolean underWay = !operation.isDone();
      operation.whenComplete((kind, error) -> { // on a completed operation: at once, here
        client.done(started, kind == null ? -1 : kind, error);
        if (underWay) {
          next();
        }
      });
      if (underWay) {
        return;
      }
    }
    finished.run();
  }

  /** One operation of the mix, as {@link ServerLoad}'s threads run it; completes with its kind. */
  private CompletableFuture<Integer> operation(ThreadLocalRandom random) {
    ServerLoad.Draw draw = ServerLoad.Draw.next(random);
    CompletableFuture<?> done = switch (draw.kind()) {
      case 0 -> kv.get(draw.item());
      case 1 -> kv.set(draw.item(), ServerLoad.item(draw.n()));
      case 2 -> kv.list(draw.listed(), ServerLoad.LIST)
          .thenAccept(entries -> entries.forEach(KvEntry::key));
      default -> increment(draw.counter(), draw.n());
    };
    return done.thenApply(result -> draw.kind());
  }

  /** Reads counter {@code n} and writes it one higher if unchanged, until that succeeds. */
  private CompletableFuture<Void> increment(KvKey key, int n) {
    return kv.get(key).thenCompose(e -> {
      KvU64 next = KvU64.of(ServerLoad.count(e) + 1);
      return kv.commit(kv.blocking().atomic().check(e).set(key, next));
    }).thenCompose(result -> {
      if (!result.ok()) {
        return increment(key, n);
      }
      increments.incrementAndGet(n);
      return CompletableFuture.completedFuture(null);
    });
  }
}
