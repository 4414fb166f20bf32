package dev.kvasir;

import dev.kvasir.base.KvClosedException;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.KvEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running {@link Kv#listenQueue} loop: one daemon thread takes due messages one at a time and
 * hands each to the handler. {@link #close()} stops taking messages, lets a message in flight
 * finish, and waits for the thread to end.
 */
public final class QueueListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueueListener.class);

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
        message = engine.dequeueNext();
      } catch (InterruptedException | KvClosedException e) {
        return;
      } finally {
        synchronized (this) {
          waiting = false;
          Thread.interrupted(); // an interrupt meant for the wait only; closed is set too
        }
      }
      if (message == null) {
        return;
      }
      boolean ok = deliver(message);
      try {
        message.finish(ok);
      } catch (KvClosedException e) {
        return;
      }
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
