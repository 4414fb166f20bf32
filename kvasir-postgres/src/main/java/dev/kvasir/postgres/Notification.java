package dev.kvasir.postgres;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.RawKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a commit tells other instances through {@code NOTIFY}: {@code <instance> <flags>
 * <keys>}, where flags holds {@code q} if messages were enqueued and {@code e} if rows with an
 * expiry were written ({@code -} for neither), and keys are 64-bit hashes of the written keys in
 * hex separated by commas, or {@code *} when they would not fit PostgreSQL's 8000-byte payload.
 * A key whose versionstamp only the server knows when the notification is sent (a pipelined
 * versionstamped key) is announced by its prefix as {@code s<hash>}: it wakes the watchers of
 * every versionstamped key under that prefix. A hash collision, or such a prefix, only wakes a
 * watcher that then finds nothing changed.
 */
record Notification(String instance, boolean enqueued, boolean expiring, Set<Long> keyHashes,
    Set<Long> stampedPrefixHashes) {
  private static final int MAX_PAYLOAD = 7_900;
  /** The versionstamp part of a versionstamped key: 02, 20 hex digits, 00. */
  private static final int STAMP_PART = 2 + 2 * Versionstamp.LENGTH;

  /** Whether every watcher should look, because the keys were not listed. */
  boolean allKeys() {
    return keyHashes == null;
  }

  /** Whether a watcher of {@code key} should look; only for {@code !allKeys()}. */
  boolean mayHaveChanged(RawKey key) {
    if (keyHashes.contains(hash(key))) {
      return true;
    }
    if (stampedPrefixHashes.isEmpty()) {
      return false;
    }
    byte[] k = key.sharedBytes();
    int prefix = k.length - STAMP_PART;
    return prefix >= 0 && k[prefix] == 0x02 && k[k.length - 1] == 0x00
        && stampedPrefixHashes.contains(fnv1a(Arrays.copyOf(k, prefix)));
  }

  /**
   * The payload for a commit that wrote {@code keys} and versionstamped keys under {@code
   * stampedPrefixes}.
   */
  static String payload(String instance, boolean enqueued, boolean expiring, List<RawKey> keys,
      List<RawKey> stampedPrefixes) {
    StringBuilder sb = new StringBuilder(instance).append(' ');
    if (enqueued) {
      sb.append('q');
    }
    if (expiring) {
      sb.append('e');
    }
    if (!enqueued && !expiring) {
      sb.append('-');
    }
    sb.append(' ');
    int start = sb.length();
    List<String> tokens = new ArrayList<>(keys.size() + stampedPrefixes.size());
    for (RawKey k : keys) {
      tokens.add(Long.toHexString(hash(k)));
    }
    for (RawKey prefix : stampedPrefixes) {
      tokens.add("s" + Long.toHexString(hash(prefix)));
    }
    for (String token : tokens) {
      if (sb.length() > start) {
        sb.append(',');
      }
      sb.append(token);
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
    Set<Long> stamped = new HashSet<>();
    if (!parts[2].equals("*")) {
      hashes = new HashSet<>();
      for (String h : parts[2].split(",")) {
        if (!h.isEmpty()) {
          try {
            if (h.charAt(0) == 's') {
              stamped.add(Long.parseUnsignedLong(h.substring(1), 16));
            } else {
              hashes.add(Long.parseUnsignedLong(h, 16));
            }
          } catch (NumberFormatException e) {
            return null;
          }
        }
      }
    }
    return new Notification(parts[0], parts[1].contains("q"), parts[1].contains("e"), hashes,
        stamped);
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
