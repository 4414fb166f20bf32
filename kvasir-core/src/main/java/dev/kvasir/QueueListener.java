package dev.kvasir;

import dev.kvasir.base.KvClosedException;
import dev.kvasir.base.KvException;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running {@link Kv#listenQueue} loop: one daemon thread takes due messages one at a time and
 * hands each to the handler. {@link #close()} stops taking messages, lets a message in flight
 * finish, and waits for the thread to end.
 */
public final class QueueListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueueListener.class);
  /** One round of waiting for a message; a remote engine's long poll lasts this long. */
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final Kv kv;
  private final KvEngine engine;
  private final QueueHandler handler;
  private final Thread thread;
  private boolean closed;
  private boolean waiting;

  QueueListener(Kv kv, KvEngine engine, QueueHandler handler) {
    this.kv = kv;
    this.engine = engine;
    this.handler = handler;
    this.thread = new Thread(this::run, "kvasir-queue-listener");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Whether the loop still takes messages. */
  public synchronized boolean isRunning() {
    return !closed && thread.isAlive();
  }

  /**
   * Waits until the loop has stopped: closed, its database closed, or given up after a failure
   * it could not retry (logged). The loop's thread is a daemon, which keeps no JVM running, so a
   * worker whose work is this listener waits here, as Deno's {@code await kv.listenQueue(…)}
   * waits until the database is closed.
   */
  public void awaitTermination() throws InterruptedException {
    thread.join();
  }

  /**
   * {@link #awaitTermination()} for at most {@code timeout}.
   *
   * @return whether the loop has stopped
   */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    thread.join(Math.max(1, timeout.toMillis()));
    return !thread.isAlive();
  }

  /**
   * Stops the loop after the message in flight, if any, and waits for it (unless called by
   * the handler itself). Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (waiting) {
        thread.interrupt();
      }
    }
    if (Thread.currentThread() != thread) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    kv.forget(this);
  }

  private void run() {
    while (true) {
      synchronized (this) {
        if (closed) {
          return;
        }
        waiting = true;
      }
      DequeuedMessage message;
      try {
        message = engine.dequeueNext(WAIT);
      } catch (InterruptedException | KvClosedException e) {
        return;
      } catch (KvException e) {
        if (!e.isRetryable()) {
          LOG.error("The queue listener stops: taking a message failed", e);
          return;
        }
        LOG.warn("Cannot take a queue message now; trying again in a second: {}",
            e.getMessage());
        if (!pause()) {
          return;
        }
        continue;
      } catch (RuntimeException e) {
        // Not the engine's own kind of failure: a bug, or a library's. Say so, but keep
        // delivering; a listener whose thread ended would stop without a word.
        LOG.error("Taking a queue message failed unexpectedly; trying again in a second", e);
        if (!pause()) {
          return;
        }
        continue;
      } finally {
        synchronized (this) {
          waiting = false;
          Thread.interrupted(); // an interrupt meant for the wait only; closed is set too
        }
      }
      if (message == null) {
        continue; // none due this round; a closed engine throws at the next
      }
      boolean ok = deliver(message);
      try {
        message.finish(ok);
      } catch (KvClosedException e) {
        return;
      } catch (RuntimeException e) {
        // The outcome is lost (the server stayed out of reach, say). The message's lease runs
        // out, which counts as a failed attempt: it is retried or dead-lettered.
        LOG.warn("Cannot report that a queue message was {}; once its lease runs out it counts"
            + " as a failed attempt: {}", ok ? "handled" : "not handled", e.toString());
      }
    }
  }

  /** Waits a second before trying again; false if closed meanwhile. */
  private boolean pause() {
    try {
      Thread.sleep(1_000);
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  private boolean deliver(DequeuedMessage message) {
    try {
      handler.handle(message.payload().decode());
      return true;
    } catch (Exception | AssertionError e) {
      LOG.warn("The queue handler failed; the message will be retried or dead-lettered", e);
      return false;
    }
  }
}
