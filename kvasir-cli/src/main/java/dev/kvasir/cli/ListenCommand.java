package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.base.KvException;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvasir listen}. */
@Command(name = "listen", mixinStandardHelpOptions = true,
    description = {"Take messages from the database's queue and print each as one line of JSON,"
        + " until Ctrl-C or SIGTERM.",
        "A message is acknowledged (taken off the queue, as by a Deno listenQueue handler)"
            + " only once its line was written. Once nobody reads standard output (a pipe's"
            + " reader went away), the command stops, and a message it could not write is given"
            + " back, due at once with its retries untouched."},
    footer = {"", "Examples:",
        "  kvasir listen",
        "  kvasir listen --count 1 --db jobs.sqlite3"})
final class ListenCommand extends DbCommand {
  /** One round of waiting for a message; a remote engine's long poll lasts this long. */
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Option(names = "--count", paramLabel = "N", description = "Stop after this many messages.")
  Integer count;

  /** Whether the command waits for a message, the one time Ctrl-C may interrupt it. */
  private boolean waiting;
  private boolean stopped;

  @Override
  void checkArguments() {
    positive("--count", count);
  }

  /** Taking a message off the queue is a write. */
  @Override
  boolean writes() {
    return true;
  }

  // Messages are taken through the engine rather than Kv.listenQueue: a handler can only
  // succeed or fail, and a failed attempt uses up a retry, or dead-letters a message that has
  // none. A line that cannot be written gives its message back instead (docs/queues.md §3).
  @Override
  int run(Kv kv) {
    KvEngine engine = kv.engine();
    Thread self = Thread.currentThread();
    int received = 0;
    try (Kvasir.Interruption stop = Kvasir.untilStopped(() -> interrupt(self))) {
      while ((count == null || received < count) && !isStopped()) {
        DequeuedMessage message = next(engine);
        if (message == null) {
          continue;
        }
        String line;
        try {
          line = Render.text(TypedJson.of(message.payload()));
        } catch (RuntimeException e) {
          err().println("warning: a message cannot be printed (" + e.getMessage()
              + "); it counts as a failed delivery, retried or dead-lettered");
          message.finish(false);
          continue;
        }
        if (!StandardOutput.printLine(out(), line)) {
          message.release();
          return Kvasir.PIPE_CLOSED;
        }
        message.finish(true);
        received++;
      }
      return out().checkError() ? Kvasir.PIPE_CLOSED : 0;
    }
  }

  /** The next due message, or null after a round without one or when stopped. */
  private DequeuedMessage next(KvEngine engine) {
    synchronized (this) {
      if (stopped) {
        return null;
      }
      waiting = true;
    }
    try {
      return engine.dequeueNext(WAIT);
    } catch (InterruptedException e) {
      return null; // Ctrl-C; nothing was taken
    } catch (KvException e) {
      if (!e.isRetryable()) {
        throw e;
      }
      err().println("warning: cannot take a message now, trying again in a second: "
          + e.getMessage());
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException stop) {
        // Ctrl-C
      }
      return null;
    } finally {
      synchronized (this) {
        waiting = false;
        Thread.interrupted(); // meant for the wait only; stopped is set too
      }
    }
  }

  private synchronized void interrupt(Thread self) {
    stopped = true;
    if (waiting) {
      self.interrupt();
    }
  }

  private synchronized boolean isStopped() {
    return stopped;
  }
}
