package dev.kvasir.spi;

import dev.kvasir.value.EncodedValue;

/** A queue message handed to one listener; it stays "running" until finished. */
public interface DequeuedMessage {
  /** The V8 payload as enqueued. */
  EncodedValue payload();

  /**
   * Ends this delivery. On failure the message is retried after the next backoff interval or,
   * when none is left, its payload is written to its {@code keysIfUndelivered}.
   */
  void finish(boolean success);

  /**
   * Ends this delivery without an outcome, for a listener that gives the message back without
   * knowing how its handling went (a server that stops before its remote listener reported
   * it): the message is due again at once with its retries as they were, and no attempt is
   * counted.
   */
  void release();
}
