package dev.kvasir.spi;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.value.EncodedValue;
import java.util.Objects;

/**
 * An entry with everything a lossless copy keeps (docs/dag-keyspace.md §2): key, value,
 * versionstamp and expiry ({@code expireAtMs} in epoch milliseconds, {@link #NEVER} for none).
 */
public record StoredEntry(RawKey key, EncodedValue value, Versionstamp versionstamp,
    long expireAtMs) {
  /** The expiry of an entry that never expires. */
  public static final long NEVER = -1;

  public StoredEntry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(versionstamp, "versionstamp");
  }
}
