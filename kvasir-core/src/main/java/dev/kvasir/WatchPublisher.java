package dev.kvasir;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * {@link Kv#watchPublisher} as a {@link Flow.Publisher}: each subscriber gets its own {@link
 * WatchStream}, drained by a daemon thread that honours the subscriber's demand.
 */
final class WatchPublisher implements Flow.Publisher<List<KvEntry>> {
  private final Kv kv;
  private final List<KvKey> keys;

  WatchPublisher(Kv kv, List<KvKey> keys) {
    this.kv = kv;
    this.keys = keys;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super List<KvEntry>> subscriber) {
    // Refused before the watch is opened (Reactive Streams rule 1.9), which nothing would close.
    Objects.requireNonNull(subscriber, "subscriber");
    WatchStream stream;
    try {
      stream = kv.watch(keys);
    } catch (RuntimeException e) {
      subscriber.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      });
      subscriber.onError(e);
      return;
    }
    Emitter emitter = new Emitter(stream, subscriber);
    try {
      subscriber.onSubscribe(emitter);
    } catch (RuntimeException e) { // the subscriber broke rule 2.13; its watch ends here
      stream.close();
      throw e;
    }
    Thread thread = new Thread(emitter::run, "kvasir-watch-publisher");
    thread.setDaemon(true);
    thread.start();
  }

  private static final class Emitter implements Flow.Subscription {
    private final WatchStream stream;
    private final Flow.Subscriber<? super List<KvEntry>> subscriber;
    private long demand;
    private boolean cancelled;
    private IllegalArgumentException badRequest;

    Emitter(WatchStream stream, Flow.Subscriber<? super List<KvEntry>> subscriber) {
      this.stream = stream;
      this.subscriber = subscriber;
    }

    @Override
    public synchronized void request(long n) {
      if (n <= 0) {
        badRequest = new IllegalArgumentException("request must be positive: " + n);
        stream.close();
      } else {
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
      }
      notifyAll();
    }

    @Override
    public void cancel() {
      synchronized (this) {
        cancelled = true;
        notifyAll();
      }
      stream.close();
    }

    void run() {
      try {
        while (awaitDemand() && stream.hasNext()) {
          List<KvEntry> state = stream.next();
          synchronized (this) {
            if (cancelled) {
              return;
            }
            demand--;
          }
          subscriber.onNext(state);
        }
        finish(null);
      } catch (InterruptedException e) {
        stream.close();
      } catch (RuntimeException e) {
        stream.close();
        finish(e);
      }
    }

    private synchronized boolean awaitDemand() throws InterruptedException {
      while (demand == 0 && !cancelled && badRequest == null) {
        wait();
      }
      return !cancelled && badRequest == null;
    }

    private void finish(Throwable error) {
      Throwable cause;
      synchronized (this) {
        if (cancelled) {
          return;
        }
        cancelled = true;
        cause = badRequest != null ? badRequest : error;
      }
      if (cause != null) {
        subscriber.onError(cause);
      } else {
        subscriber.onComplete();
      }
    }
  }
}
