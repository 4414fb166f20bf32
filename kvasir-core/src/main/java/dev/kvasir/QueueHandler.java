package dev.kvasir;

import org.jspecify.annotations.Nullable;

/**
 * Handles one queue message. Returning normally acknowledges it; throwing makes it fail, so it
 * is retried by its backoff schedule or, after the last attempt, written to its
 * keysIfUndelivered. Delivery is at least once: a handler must tolerate duplicates.
 */
@FunctionalInterface
public interface QueueHandler {
  void handle(@Nullable Object message) throws Exception;
}
