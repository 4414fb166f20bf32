package dev.kvasir.testkit;

import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.value.EncodedValue;

/**
 * A taken queue message that hands every call to another, for tests that change one of them (a
 * report that fails, a give-back held at a chosen moment), as {@link ForwardingEngine} does for
 * an engine.
 */
public class ForwardingMessage implements DequeuedMessage {
  private final DequeuedMessage inner;

  /** Hands every call to {@code inner}. */
  public ForwardingMessage(DequeuedMessage inner) {
    this.inner = inner;
  }

  @Override
  public EncodedValue payload() {
    return inner.payload();
  }

  @Override
  public void finish(boolean success) {
    inner.finish(success);
  }

  @Override
  public void release() {
    inner.release();
  }
}
