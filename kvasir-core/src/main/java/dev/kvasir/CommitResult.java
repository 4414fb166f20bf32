package dev.kvasir;

import dev.kvasir.base.Versionstamp;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of a commit. A failed check is an expected outcome, not an exception: {@code ok()}
 * is then {@code false} and {@code versionstamp()} is {@code null}. On success, {@code
 * versionstamp()} is the one every write of the commit carries.
 */
public record CommitResult(boolean ok, @Nullable Versionstamp versionstamp) {
  private static final CommitResult CHECK_FAILED = new CommitResult(false, null);

  public CommitResult {
    if (ok != (versionstamp != null)) {
      throw new IllegalArgumentException("a versionstamp exactly when ok");
    }
  }

  static CommitResult committed(Versionstamp versionstamp) {
    return new CommitResult(true, versionstamp);
  }

  static CommitResult checkFailed() {
    return CHECK_FAILED;
  }
}
