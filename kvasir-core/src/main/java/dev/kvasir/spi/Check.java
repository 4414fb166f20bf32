package dev.kvasir.spi;

import dev.kvasir.base.Versionstamp;
import java.util.Objects;

/**
 * A condition of an atomic write: the key's current versionstamp must equal {@code
 * versionstamp}, or, when that is {@code null}, the key must not exist (expired entries do not
 * exist).
 */
public record Check(RawKey key, Versionstamp versionstamp) {
  public Check {
    Objects.requireNonNull(key, "key");
  }
}
