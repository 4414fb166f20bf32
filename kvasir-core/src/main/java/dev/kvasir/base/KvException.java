package dev.kvasir.base;

/**
 * Root of every error Kvasir raises on its own account. Unchecked; subclasses exist only where
 * a caller needs to tell failures apart. Messages name the offending thing and the rule.
 *
 * <p>{@link #isRetryable()} is the one signal for "the same call may succeed later": it is true
 * exactly for {@link KvUnavailableException}, which every engine throws for transient faults
 * (a lock held too long, a full disk, a server out of reach), and {@link KvConflictException},
 * a transaction that met others' commits too often. Everything else fails again.
 */
public class KvException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public KvException(String message) {
    super(message);
  }

  public KvException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether the same call may succeed if tried again later; see the class comment. */
  public boolean isRetryable() {
    return false;
  }
}
