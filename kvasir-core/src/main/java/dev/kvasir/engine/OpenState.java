package dev.kvasir.engine;

import dev.kvasir.base.KvClosedException;

/**
 * Whether an engine is still open. It closes once: only the first {@link #close()} returns true,
 * so only one caller releases the engine's resources. Thread-safe.
 */
public final class OpenState {
  /** Open. */
  public OpenState() {}

  private volatile boolean closed;

  public boolean isClosed() {
    return closed;
  }

  /** @throws KvClosedException once the engine was closed */
  public void ensureOpen() {
    if (closed) {
      throw new KvClosedException();
    }
  }

  /** Marks the engine closed; true for the first caller only, who then releases it. */
  public synchronized boolean close() {
    if (closed) {
      return false;
    }
    closed = true;
    return true;
  }
}
