package dev.kvasir.base;

/**
 * The database could not be reached, or kept aborting the operation, for longer than the engine
 * waits; retrying later is the remedy. Whether a failed write took effect is told by {@link
 * #maybeApplied()}: a write that failed before its commit was sent did not; one whose connection
 * broke while committing may have, so read first or retry with a check.
 */
public class KvUnavailableException extends KvException {
  private static final long serialVersionUID = 1L;

  private final boolean maybeApplied;

  public KvUnavailableException(String message, boolean maybeApplied, Throwable cause) {
    super(message, cause);
    this.maybeApplied = maybeApplied;
  }

  /** Always true: the cause is transient. */
  @Override
  public boolean isRetryable() {
    return true;
  }

  /** Whether the failed operation may nevertheless have taken effect. */
  public boolean maybeApplied() {
    return maybeApplied;
  }
}
