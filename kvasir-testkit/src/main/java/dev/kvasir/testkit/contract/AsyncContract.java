package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.AsyncKv;
import dev.kvasir.CommitResult;
import dev.kvasir.KvEntry;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.value.KvU64;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kv.async()} (docs/async.md): every operation as a future, completing on the executor
 * given, failing its future rather than throwing.
 */
public abstract class AsyncContract extends ContractBase {
  private ExecutorService callbacks;
  private AsyncKv async;

  @BeforeEach
  void startCallbacks() {
    callbacks = Executors.newFixedThreadPool(2, r -> new Thread(r, "test-callbacks"));
    async = kv.async(callbacks);
  }

  @AfterEach
  void stopCallbacks() {
    callbacks.shutdownNow();
  }

  @Test
  void writesAndReads_completeOnTheGivenExecutor() throws Exception {
    List<CompletableFuture<CommitResult>> writes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      writes.add(async.set(key("a", i), i));
    }
    CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    assertThat(writes).allMatch(w -> w.join().ok());
    // A callback runs where the future completed (the executor given), or, when it completed
    // before the callback was attached, on the attaching thread; never on an engine's.
    String[] thread = new String[1];
    String caller = Thread.currentThread().getName();
    KvEntry e = async.get(key("a", 7)).thenApply(entry -> {
      thread[0] = Thread.currentThread().getName();
      return entry;
    }).get(10, TimeUnit.SECONDS);
    assertThat(e.value()).isEqualTo(7.0);
    assertThat(thread[0]).isIn("test-callbacks", caller);
    assertThat(async.getAll(List.of(key("a", 1), key("a", 99), key("none"))).join())
        .extracting(KvEntry::exists).containsExactly(true, true, false);
  }

  @Test
  void callbacks_mayCallTheBlockingApi() throws Exception {
    kv.set(key("b", 1), "one");
    // Callbacks run on the executor given, never on a thread the engine needs to answer a call
    // (the remote client's selector, the commit thread), so a blocking call there completes.
    Object copied = async.get(key("b", 1))
        .thenApply(e -> kv.set(key("b", 2), e.value()).ok() ? kv.get(key("b", 2)).value() : null)
        .get(30, TimeUnit.SECONDS);
    assertThat(copied).isEqualTo("one");
    Object written = async.set(key("b", 3), 3)
        .thenApply(done -> kv.set(key("b", 4), 4).ok() ? kv.get(key("b", 4)).value() : null)
        .get(30, TimeUnit.SECONDS);
    assertThat(written).isEqualTo(4.0);
  }

  @Test
  void list_readsEveryBatch_andTheOptions() {
    for (int i = 0; i < 25; i++) {
      kv.set(key("l", i), i);
    }
    List<KvEntry> all = async.list(ListSelector.prefix(key("l")),
        ListOptions.defaults().batchSize(4)).join();
    assertThat(keys(all)).hasSize(25).first().isEqualTo(key("l", 0));
    List<KvEntry> lastThree = async.list(ListSelector.prefix(key("l")),
        ListOptions.defaults().reverse(true).limit(3).batchSize(2)).join();
    assertThat(keys(lastThree)).containsExactly(key("l", 24), key("l", 23), key("l", 22));
  }

  @Test
  void atomicOperations_checksAndSums_commitAsynchronously() {
    assertThat(async.sum(key("n"), 5).join().ok()).isTrue();
    KvEntry n = kv.get(key("n"));
    assertThat(async.commit(kv.atomic().check(n).sum(key("n"), -1)).join().ok()).isTrue();
    assertThat(async.commit(kv.atomic().check(n).sum(key("n"), 100)).join().ok())
        .as("the versionstamp moved").isFalse();
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(4));
    assertThat(async.delete(key("n")).join().ok()).isTrue();
    assertThat(kv.get(key("n")).exists()).isFalse();
  }

  @Test
  void invalidArguments_failTheFuture_ratherThanThrow() {
    CompletableFuture<CommitResult> tooBig = async.set(key("big"), new byte[70_000]);
    assertThat(tooBig).isCompletedExceptionally();
    assertThat(tooBig.handle((r, e) -> e).join()).isInstanceOf(KvLimitException.class);
    CompletableFuture<List<KvEntry>> tooMany = async.getMany(Collections.nCopies(11, key("x")));
    assertThat(tooMany).isCompletedExceptionally();
    assertThat(tooMany.handle((r, e) -> e).join()).isInstanceOf(KvLimitException.class);
  }

  @Test
  void thousandsOfOutstandingGets_startNoThreadForEach() throws Exception {
    kv.set(key("t"), 1);
    kv.async().get(key("t")).get(30, TimeUnit.SECONDS); // the threads every get shares
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long startedBefore = threads.getTotalStartedThreadCount();
    List<CompletableFuture<KvEntry>> gets = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      gets.add(kv.async().get(key("t")));
    }
    CompletableFuture.allOf(gets.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    assertThat(gets).allMatch(g -> g.join().exists());
    // Pools may grow under the burst (a server in this JVM too), but not by one per get.
    assertThat(threads.getTotalStartedThreadCount() - startedBefore).isLessThan(1000);
  }
}
