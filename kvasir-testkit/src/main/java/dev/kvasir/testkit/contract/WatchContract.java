package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.MeterSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
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

  @Test
  void watchPublisher_deliversOnDemand_andCompletesOnClose() throws Exception {
    BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
    Flow.Subscription[] subscription = new Flow.Subscription[1];
    kv.watchPublisher(List.of(key("p"))).subscribe(new Flow.Subscriber<List<KvEntry>>() {
      @Override
      public void onSubscribe(Flow.Subscription s) {
        subscription[0] = s;
        s.request(1);
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
    });
    @SuppressWarnings("unchecked")
    List<KvEntry> first = (List<KvEntry>) signals.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(first.get(0).exists()).isFalse();
    kv.set(key("p"), 1);
    assertThat(signals.poll(200, TimeUnit.MILLISECONDS)).as("no demand, no emission").isNull();
    subscription[0].request(5);
    @SuppressWarnings("unchecked")
    List<KvEntry> second = (List<KvEntry>) signals.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(second.get(0).value()).isEqualTo(1.0);
    kv.close();
    assertThat(signals.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("complete");
  }

  /** The {@code kvasir.watches.open} gauge of this test's database. */
  private DoubleSupplier openWatches() {
    DoubleSupplier[] gauge = new DoubleSupplier[1];
    kv.bindMeters(new MeterSink() {
      @Override
      public LongConsumer counter(String name, String description, String... tags) {
        return n -> { };
      }

      @Override
      public void functionCounter(String name, String description, DoubleSupplier value,
          String... tags) {}

      @Override
      public DoubleConsumer summary(String name, String description, String... tags) {
        return v -> { };
      }

      @Override
      public LongConsumer timer(String name, String description, String... tags) {
        return n -> { };
      }

      @Override
      public void gauge(String name, String description, DoubleSupplier value,
          String... tags) {
        if (name.equals("kvasir.watches.open")) {
          gauge[0] = value;
        }
      }
    });
    return gauge[0];
  }

  @Test
  void watchPublisher_followsTheFlowRules_forANullSubscriber_aBadRequest_andACancel()
      throws Exception {
    DoubleSupplier open = openWatches();
    Flow.Publisher<List<KvEntry>> publisher = kv.watchPublisher(List.of(key("r")));
    // Rule 1.9: a null subscriber is refused. Before, the watch was opened first and never
    // closed.
    assertThatThrownBy(() -> publisher.subscribe(null))
        .isInstanceOf(NullPointerException.class);
    assertThat(open.getAsDouble()).as("watches left open").isZero();

    // Rule 3.9: a request of 0 ends the subscription with IllegalArgumentException.
    BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
    Flow.Subscription[] subscription = new Flow.Subscription[1];
    Flow.Subscriber<List<KvEntry>> recorder = new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription s) {
        subscription[0] = s;
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
    };
    publisher.subscribe(recorder);
    subscription[0].request(0);
    assertThat(signals.poll(WAIT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class);
    awaitZero(open);

    // A cancelled subscription closes its watch and signals nothing more.
    publisher.subscribe(recorder);
    subscription[0].request(1);
    assertThat(signals.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(List.class);
    subscription[0].cancel();
    awaitZero(open);
    subscription[0].request(1);
    kv.set(key("r"), 1);
    assertThat(signals.poll(200, TimeUnit.MILLISECONDS)).isNull();
  }

  private static void awaitZero(DoubleSupplier open) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (open.getAsDouble() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(open.getAsDouble()).as("watches left open").isZero();
  }
}
