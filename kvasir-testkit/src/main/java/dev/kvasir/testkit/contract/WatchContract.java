package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.testkit.RecordingMeterSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/** watch: initial state, changes, deletes, several keys, expiry, close (reference §6). */
public abstract class WatchContract extends ContractBase {
  /** Generous, so slow machines do not fail; nothing here measures speed. */
  private static final long WAIT_SECONDS = 10;

  /** Drains a watch on a background thread so a test can wait for each emission. */
  private static final class Collector implements AutoCloseable {
    final BlockingQueue<List<KvEntry>> emissions = new LinkedBlockingQueue<>();
    final CountDownLatch ended = new CountDownLatch(1);
    final WatchStream stream;

    Collector(WatchStream stream) {
      this.stream = stream;
      Thread t = new Thread(() -> {
        try {
          stream.forEach(emissions::add);
        } finally {
          ended.countDown();
        }
      }, "watch-collector");
      t.setDaemon(true);
      t.start();
    }

    List<KvEntry> next() throws InterruptedException {
      List<KvEntry> e = emissions.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(e).as("an emission within %d s", WAIT_SECONDS).isNotNull();
      return e;
    }

    /** Waits until an emission satisfies the condition (rapid changes may coalesce). */
    List<KvEntry> nextWhere(java.util.function.Predicate<List<KvEntry>> condition)
        throws InterruptedException {
      while (true) {
        List<KvEntry> e = next();
        if (condition.test(e)) {
          return e;
        }
      }
    }

    @Override
    public void close() {
      stream.close();
    }
  }

  private Collector watch(KvKey... keys) {
    return new Collector(kv.watch(List.of(keys)));
  }

  @Test
  void watch_firstEmission_isTheCurrentState() throws Exception {
    kv.set(key("a"), "A");
    try (Collector w = watch(key("a"), key("missing"))) {
      List<KvEntry> first = w.next();
      assertThat(first).extracting(KvEntry::key).containsExactly(key("a"), key("missing"));
      assertThat(first.get(0).value()).isEqualTo("A");
      assertThat(first.get(1).value()).isNull();
      assertThat(first.get(1).versionstamp()).isNull();
    }
  }

  @Test
  void watch_change_emitsTheNewValue() throws Exception {
    try (Collector w = watch(key("a"))) {
      w.next();
      kv.set(key("a"), 1);
      assertThat(w.next().get(0).value()).isEqualTo(1.0);
      kv.set(key("a"), 2);
      kv.set(key("a"), 3);
      assertThat(w.nextWhere(e -> Double.valueOf(3).equals(e.get(0).value())).get(0).value())
          .isEqualTo(3.0);
    }
  }

  @Test
  void watch_delete_emitsAMissingEntry() throws Exception {
    kv.set(key("a"), 1);
    try (Collector w = watch(key("a"))) {
      w.next();
      kv.delete(key("a"));
      List<KvEntry> e = w.next();
      assertThat(e.get(0).exists()).isFalse();
    }
  }

  @Test
  void watch_severalKeys_emitsWhenAnyChanges_withAllStates() throws Exception {
    try (Collector w = watch(key("a"), key("b"), key("c"))) {
      w.next();
      kv.set(key("b"), "B");
      List<KvEntry> e = w.next();
      assertThat(e).extracting(KvEntry::value).containsExactly(null, "B", null);
      kv.atomic().set(key("a"), "A").set(key("c"), "C").commit();
      List<KvEntry> both = w.nextWhere(x -> x.get(2).exists());
      assertThat(both).extracting(KvEntry::value).containsExactly("A", "B", "C");
    }
  }

  @Test
  void watch_unrelatedWrites_emitNothing() throws Exception {
    try (Collector w = watch(key("a"))) {
      w.next();
      kv.set(key("other"), 1);
      kv.atomic().check(key("a"), dev.kvasir.base.Versionstamp.ofVersion(1)).set(key("a"), 1).commit();
      kv.set(key("a"), "real");
      List<KvEntry> e = w.next();
      assertThat(e.get(0).value()).isEqualTo("real");
    }
  }

  @Test
  void watch_sameValueRewritten_emitsAgain() throws Exception {
    kv.set(key("a"), 1);
    try (Collector w = watch(key("a"))) {
      var before = w.next().get(0).versionstamp();
      kv.set(key("a"), 1);
      assertThat(w.next().get(0).versionstamp()).isGreaterThan(before);
    }
  }

  @Test
  void watch_expiry_emitsTheKeyAsMissing() throws Exception {
    kv.set(key("t"), 1, Duration.ofMillis(200));
    try (Collector w = watch(key("t"))) {
      assertThat(w.next().get(0).exists()).isTrue();
      assertThat(w.nextWhere(e -> !e.get(0).exists()).get(0).value()).isNull();
    }
  }

  @Test
  void watch_closingTheStreamOrTheDatabase_endsIteration() throws Exception {
    Collector one = watch(key("a"));
    one.next();
    one.close();
    assertThat(one.ended.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    Collector two = watch(key("a"));
    two.next();
    kv.close();
    assertThat(two.ended.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(two.stream.hasNext()).isFalse();
  }

  /** A subscriber that queues every signal it gets: the states, an error, "complete". */
  private static final class Recorder implements Flow.Subscriber<List<KvEntry>> {
    final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
    Flow.Subscription subscription;

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
    }

    @Override
    public void onNext(List<KvEntry> item) {
      signals.add(item);
    }

    @Override
    public void onError(Throwable t) {
      signals.add(t);
    }

    @Override
    public void onComplete() {
      signals.add("complete");
    }

    Object next(long millis) throws InterruptedException {
      return signals.poll(millis, TimeUnit.MILLISECONDS);
    }

    @SuppressWarnings("unchecked")
    List<KvEntry> nextState() throws InterruptedException {
      Object signal = next(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
      assertThat(signal).as("a state within %d s", WAIT_SECONDS).isInstanceOf(List.class);
      return (List<KvEntry>) signal;
    }
  }

  @Test
  void watchPublisher_deliversOnDemand_andCompletesOnClose() throws Exception {
    Recorder recorder = new Recorder();
    kv.watchPublisher(List.of(key("p"))).subscribe(recorder);
    recorder.subscription.request(1);
    assertThat(recorder.nextState().get(0).exists()).isFalse();
    kv.set(key("p"), 1);
    assertThat(recorder.next(200)).as("no demand, no emission").isNull();
    recorder.subscription.request(5);
    assertThat(recorder.nextState().get(0).value()).isEqualTo(1.0);
    kv.close();
    assertThat(recorder.next(TimeUnit.SECONDS.toMillis(WAIT_SECONDS))).isEqualTo("complete");
  }

  @Test
  void watchPublisher_followsTheFlowRules_forANullSubscriber_aBadRequest_andACancel()
      throws Exception {
    RecordingMeterSink meters = new RecordingMeterSink();
    kv.bindMeters(meters);
    DoubleSupplier open = () -> meters.read("kvasir.watches.open");
    Flow.Publisher<List<KvEntry>> publisher = kv.watchPublisher(List.of(key("r")));
    // Rule 1.9: a null subscriber is refused. Before, the watch was opened first and never
    // closed.
    assertThatThrownBy(() -> publisher.subscribe(null))
        .isInstanceOf(NullPointerException.class);
    assertThat(open.getAsDouble()).as("watches left open").isZero();

    // Rule 3.9: a request of 0 ends the subscription with IllegalArgumentException.
    Recorder refused = new Recorder();
    publisher.subscribe(refused);
    refused.subscription.request(0);
    assertThat(refused.next(TimeUnit.SECONDS.toMillis(WAIT_SECONDS)))
        .isInstanceOf(IllegalArgumentException.class);
    awaitZero(open);

    // A cancelled subscription closes its watch and signals nothing more.
    Recorder cancelled = new Recorder();
    publisher.subscribe(cancelled);
    cancelled.subscription.request(1);
    cancelled.nextState();
    cancelled.subscription.cancel();
    awaitZero(open);
    cancelled.subscription.request(1);
    kv.set(key("r"), 1);
    assertThat(cancelled.next(200)).isNull();
  }

  private static void awaitZero(DoubleSupplier open) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (open.getAsDouble() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(open.getAsDouble()).as("watches left open").isZero();
  }
}
