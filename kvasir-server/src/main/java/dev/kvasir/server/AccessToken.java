package dev.kvasir.server;

import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.util.List;
import java.util.Objects;

/**
 * A token a client may present, and what it may do (docs/operations.md §4): read and write, or
 * only read; everywhere, or only under some key prefixes (encoded keys: a prefix covers the
 * keys whose encoding starts with it, which are the keys {@code KvKey.prefix} lists).
 */
public record AccessToken(String secret, boolean readOnly, List<RawKey> prefixes) {
  public AccessToken {
    Objects.requireNonNull(secret, "secret");
    if (secret.length() < 12 || secret.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("an access token has at least 12 characters and no"
          + " white space");
    }
    prefixes = List.copyOf(prefixes);
  }

  /** A token that may read and write every key. */
  public static AccessToken full(String secret) {
    return new AccessToken(secret, false, List.of());
  }

  /** Whether the token reaches {@code key}. */
  public boolean covers(RawKey key) {
    if (prefixes.isEmpty()) {
      return true;
    }
    for (RawKey prefix : prefixes) {
      if (key.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every key of {@code range} is under one of the prefixes: both of its bounds are, as
   * every key between two keys with a common prefix has it too.
   */
  public boolean covers(ReadRange range) {
    if (prefixes.isEmpty()) {
      return true;
    }
    for (RawKey prefix : prefixes) {
      if (range.start().startsWith(prefix) && range.end().startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** The same token, for reading only. */
  public AccessToken readOnlyCopy() {
    return readOnly ? this : new AccessToken(secret, true, prefixes);
  }

  @Override
  public String toString() {
    return "AccessToken[" + (readOnly ? "read-only" : "read-write") + ", prefixes=" + prefixes
        + "]"; // never the secret
  }
}
