package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.QueueListener;
import dev.kvasir.value.EncodedValue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvasir listen}. */
@Command(name = "listen", mixinStandardHelpOptions = true,
    description = {"Take messages from the database's queue and print each as one line of JSON,"
        + " until Ctrl-C.",
        "A printed message is acknowledged: it is taken off the queue, as by a Deno"
            + " listenQueue handler."},
    footer = {"", "Examples:",
        "  kvasir listen",
        "  kvasir listen --count 1 --db jobs.sqlite3"})
final class ListenCommand extends DbCommand {
  @Option(names = "--count", description = "Stop after this many messages.")
  Integer count;

  @Override
  int run(Kv kv) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    CompletableFuture<QueueListener> self = new CompletableFuture<>();
    AtomicInteger received = new AtomicInteger();
    QueueListener listener = kv.listenQueue(message -> {
      out().println(Render.text(TypedJson.of(EncodedValue.of(message))));
      out().flush();
      if (count != null && received.incrementAndGet() >= count) {
        // Closing from the handler takes no further message; this one is acknowledged.
        self.join().close();
        done.countDown();
      }
    });
    self.complete(listener);
    try (Kvasir.Interruption stop = Kvasir.onInterrupt(done::countDown)) {
      done.await();
    } finally {
      listener.close();
    }
    return 0;
  }
}
