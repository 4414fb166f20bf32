package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.QueueListener;
import dev.kvasir.value.EncodedValue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvasir listen}. */
@Command(name = "listen", mixinStandardHelpOptions = true,
    description = {"Take messages from the database's queue and print each as one line of JSON,"
        + " until Ctrl-C.",
        "A message is acknowledged (taken off the queue, as by a Deno listenQueue handler)"
            + " only once its line was written. When standard output is closed (a pipe's reader"
            + " went away), the message that could not be written stays in the queue, with"
            + " the others, and the command stops."},
    footer = {"", "Examples:",
        "  kvasir listen",
        "  kvasir listen --count 1 --db jobs.sqlite3"})
final class ListenCommand extends DbCommand {
  @Option(names = "--count", description = "Stop after this many messages.")
  Integer count;

  /** Taking a message off the queue is a write. */
  @Override
  boolean writes() {
    return true;
  }

  @Override
  int run(Kv kv) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    CompletableFuture<QueueListener> self = new CompletableFuture<>();
    AtomicInteger received = new AtomicInteger();
    AtomicBoolean outputClosed = new AtomicBoolean();
    QueueListener listener = kv.listenQueue(message -> {
      out().println(Render.text(TypedJson.of(EncodedValue.of(message))));
      if (out().checkError()) {
        // Failing the handler keeps the message queued: it is delivered again later.
        outputClosed.set(true);
        // The core reports a failed handler with its stack trace; leaving a message queued
        // because nobody reads the output is no failure to report.
        Logging.setLevel(QueueListener.class.getName(), "off");
        self.join().close();
        done.countDown();
        throw new IllegalStateException("standard output is closed; message left queued");
      }
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
    return outputClosed.get() ? Kvasir.PIPE_CLOSED : 0;
  }
}
