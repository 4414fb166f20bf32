package dev.kvasir.base;

/**
 * A transaction ({@code Kv.transact}) kept meeting commits of others to the keys it read, and
 * gave up after its last attempt. Nothing of it was applied; the same call may succeed later.
 */
public class KvConflictException extends KvException {
  private static final long serialVersionUID = 1L;

  private final int attempts;

  public KvConflictException(String message, int attempts) {
    super(message);
    this.attempts = attempts;
  }

  /** How many times the transaction ran. */
  public int attempts() {
    return attempts;
  }

  /** Always true: others' commits end, and a later attempt may find the keys quiet. */
  @Override
  public boolean isRetryable() {
    return true;
  }
}
