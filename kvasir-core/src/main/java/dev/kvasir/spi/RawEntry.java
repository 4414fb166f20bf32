package dev.kvasir.spi;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.value.EncodedValue;
import java.util.Objects;

/** A stored entry as an engine returns it: encoded key, encoded value and its versionstamp. */
public record RawEntry(RawKey key, EncodedValue value, Versionstamp versionstamp) {
  public RawEntry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(versionstamp, "versionstamp");
  }
}
