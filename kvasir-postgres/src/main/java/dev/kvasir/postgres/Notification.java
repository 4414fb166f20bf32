package dev.kvasir.postgres;

import dev.kvasir.spi.RawKey;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a commit tells other instances through {@code NOTIFY}: {@code <instance> <flags>
 * <keys>}, where flags holds {@code q} if messages were enqueued and {@code e} if rows with an
 * expiry were written ({@code -} for neither), and keys are 64-bit hashes of the written keys in
 * hex separated by commas, or {@code *} when they would not fit PostgreSQL's 8000-byte payload.
 * A hash collision only wakes a watcher that then finds nothing changed.
 */
record Notification(String instance, boolean enqueued, boolean expiring, Set<Long> keyHashes) {
  private static final int MAX_PAYLOAD = 7_900;

  /** Whether every watcher should look, because the keys were not listed. */
  boolean allKeys() {
    return keyHashes == null;
  }

  static String payload(String instance, boolean enqueued, boolean expiring, List<RawKey> keys) {
    String flags = (enqueued ? "q" : "") + (expiring ? "e" : "");
    StringBuilder sb = new StringBuilder(instance).append(' ')
        .append(flags.isEmpty() ? "-" : flags).append(' ');
    int start = sb.length();
    for (RawKey k : keys) {
      if (sb.length() > start) {
        sb.append(',');
      }
      sb.append(Long.toHexString(hash(k)));
      if (sb.length() > MAX_PAYLOAD) {
        sb.setLength(start);
        return sb.append('*').toString();
      }
    }
    return sb.toString();
  }

  /** Parses a payload; {@code null} if it is not one of ours. */
  static Notification parse(String payload) {
    String[] parts = payload.split(" ", -1);
    if (parts.length != 3) {
      return null;
    }
    Set<Long> hashes = null;
    if (!parts[2].equals("*")) {
      hashes = new HashSet<>();
      for (String h : parts[2].split(",")) {
        if (!h.isEmpty()) {
          try {
            hashes.add(Long.parseUnsignedLong(h, 16));
          } catch (NumberFormatException e) {
            return null;
          }
        }
      }
    }
    return new Notification(parts[0], parts[1].contains("q"), parts[1].contains("e"), hashes);
  }

  /** The key's hash in notifications. */
  static long hash(RawKey key) {
    return fnv1a(key.sharedBytes());
  }

  /** 64-bit FNV-1a: stable across JVMs and versions, unlike {@code hashCode}. */
  static long fnv1a(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }
}
