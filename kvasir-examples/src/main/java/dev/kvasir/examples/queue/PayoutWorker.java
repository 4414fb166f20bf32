package dev.kvasir.examples.queue;

import dev.kvasir.Kv;
import dev.kvasir.QueueListener;

/**
 * A worker process: makes the payouts queued in a database until SIGTERM or Ctrl-C, {@code java
 * … dev.kvasir.examples.queue.PayoutWorker [app.sqlite3]}. Run several, on one SQLite file or
 * one PostgreSQL database: each payout goes to one of them at a time. Queue one from another
 * terminal with {@code kvasir enqueue --db app.sqlite3 '{"id":"p1","account":"alice","cents":250}'}
 * (without the retries and the failure key that {@link Payouts#submit} gives).
 */
public final class PayoutWorker {
  private PayoutWorker() {}

  public static void main(String[] args) throws InterruptedException {
    String location = args.length > 0 ? args[0] : "app.sqlite3";
    try (Kv kv = Kv.open(location)) {
      // On SIGTERM the JVM runs this: the listener finishes the payout in hand and stops, so
      // the wait below returns.
      Runtime.getRuntime().addShutdownHook(new Thread(kv::close));
      Payouts payouts = new Payouts(kv);
      QueueListener listener = kv.listenQueue(payouts::handle);
      // The listener's thread is a daemon: without this wait, main would return and the JVM end.
      listener.awaitTermination();
    }
  }
}
