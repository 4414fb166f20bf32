package dev.kvasir;

import dev.kvasir.base.KvLimitException;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.KvU64;
import java.time.Duration;
import java.util.List;

/**
 * Deno KV's limits (docs/limits.md), checked once, before any engine is called. Each
 * failure is a {@link KvLimitException} that names the value and the limit. Kvasir's KV Connect
 * server applies the same checks, so a remote database behaves as an embedded one (denokv's
 * server allows only 10 checks per atomic write).
 */
public final class Limits {
  /** Largest encoded key a write may use. */
  public static final int MAX_WRITE_KEY_BYTES = 2048;
  /** Largest encoded range bound a read may use; a get needs {@code key‖00}. */
  public static final int MAX_READ_KEY_BYTES = 2049;
  /** Largest stored value (V8 bytes, raw bytes, or 8 for a KvU64). */
  public static final int MAX_VALUE_BYTES = 65536;
  /** Largest queue payload (V8 bytes). */
  public static final int MAX_PAYLOAD_BYTES = 65536;
  /** Most ranges in one read: keys of a {@code getMany}. */
  public static final int MAX_READ_RANGES = 10;
  /** Most entries one read may ask for, summed over its ranges. */
  public static final int MAX_READ_ENTRIES = 1000;
  /** Most keys one watch may observe. */
  public static final int MAX_WATCHED_KEYS = 10;
  /** Most checks in one atomic operation (Deno's local limit). */
  public static final int MAX_CHECKS = 100;
  /** Most mutations plus enqueues in one atomic operation. */
  public static final int MAX_MUTATIONS = 1000;
  /** Largest total size of one atomic operation, counted as Deno counts it. */
  public static final int MAX_TOTAL_MUTATION_BYTES = 819_200;
  /** Largest total size of the keys that carry a value in one atomic operation. */
  public static final int MAX_TOTAL_KEY_BYTES = 81_920;
  /** Longest enqueue delay. */
  public static final Duration MAX_DELAY = Duration.ofDays(30);
  /** Most backoff intervals of one message. */
  public static final int MAX_BACKOFF_INTERVALS = 5;
  /** Longest backoff interval. */
  public static final Duration MAX_BACKOFF_INTERVAL = Duration.ofHours(1);

  private Limits() {}

  /**
   * A key used by a set, delete, sum/min/max or check, or the prefix of a versionstamped key:
   * non-empty, at most 2048 bytes. Deno limits a versionstamped key by its prefix, not by the
   * stored key, which is 22 bytes longer (docs/limits.md §1).
   */
  public static void checkWriteKey(KvKey key) {
    checkWriteKeyLength(key.encodedLength());
  }

  /** A key read by get or getMany: its range end {@code key‖00} fits 2049 bytes. */
  public static void checkReadKey(KvKey key) {
    checkReadBound(key.encodedLength() + 1);
  }

  /**
   * A watched key: at most 2049 bytes itself. Deno checks it as a bound, unlike the key of a get
   * (docs/limits.md §1).
   */
  public static void checkWatchedKey(KvKey key) {
    checkReadBound(key.encodedLength());
  }

  /** An encoded range bound of a read. */
  public static void checkReadBound(int encodedLength) {
    if (encodedLength > MAX_READ_KEY_BYTES) {
      throw new KvLimitException("key too large for read: " + encodedLength
          + " bytes (max " + MAX_READ_KEY_BYTES + ")");
    }
  }

  /** An encoded value. */
  public static void checkValue(int encodedLength) {
    if (encodedLength > MAX_VALUE_BYTES) {
      throw new KvLimitException("value too large: " + encodedLength
          + " bytes (max " + MAX_VALUE_BYTES + ")");
    }
  }

  /** The number of ranges in one read, which is the number of keys of one getMany. */
  public static void checkReadRanges(int count) {
    if (count > MAX_READ_RANGES) {
      throw new KvLimitException("too many ranges in one read: " + count + " (max "
          + MAX_READ_RANGES + "); getMany reads up to " + MAX_READ_RANGES
          + " keys in one snapshot, getAll any number, " + MAX_READ_RANGES + " at a time");
    }
  }

  /** The number of entries one read asks for, summed over its ranges. */
  public static void checkReadEntries(long count) {
    if (count > MAX_READ_ENTRIES) {
      throw new KvLimitException(
          "too many entries in one read: " + count + " (max " + MAX_READ_ENTRIES + ")");
    }
  }

  /** The number of keys of one watch. */
  public static void checkWatchedKeys(int count) {
    if (count > MAX_WATCHED_KEYS) {
      throw new KvLimitException(
          "too many keys to watch: " + count + " (max " + MAX_WATCHED_KEYS + ")");
    }
  }

  /** A queue payload (V8 bytes). */
  public static void checkPayload(int encodedLength) {
    if (encodedLength > MAX_PAYLOAD_BYTES) {
      throw new KvLimitException("enqueue payload too large: " + encodedLength
          + " bytes (max " + MAX_PAYLOAD_BYTES + ")");
    }
  }

  /** A key of keysIfUndelivered: at most 2048 bytes; unlike other written keys it may be empty. */
  public static void checkDeadLetterKey(int encodedLength) {
    if (encodedLength > MAX_WRITE_KEY_BYTES) {
      throw new KvLimitException("keysIfUndelivered key too large for write: " + encodedLength
          + " bytes (max " + MAX_WRITE_KEY_BYTES + ")");
    }
  }

  /** An enqueue delay: 0 to 30 days. */
  public static void checkDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new KvLimitException("delay must be >= 0: received " + delay.toMillis() + " ms");
    }
    if (delay.compareTo(MAX_DELAY) > 0) {
      throw new KvLimitException("delay cannot be greater than 30 days: received "
          + delay.toMillis() + " ms");
    }
  }

  /** A backoff schedule: at most 5 intervals of 0 to 3 600 000 ms. */
  public static void checkBackoffSchedule(List<Integer> intervalsMs) {
    if (intervalsMs.size() > MAX_BACKOFF_INTERVALS) {
      throw new KvLimitException("backoffSchedule has " + intervalsMs.size()
          + " intervals (max " + MAX_BACKOFF_INTERVALS + ")");
    }
    for (int i = 0; i < intervalsMs.size(); i++) {
      int ms = intervalsMs.get(i);
      if (ms < 0 || ms > MAX_BACKOFF_INTERVAL.toMillis()) {
        throw new KvLimitException("backoffSchedule interval at index " + i + " is invalid: "
            + ms + " ms (must be 0 to " + MAX_BACKOFF_INTERVAL.toMillis() + ")");
      }
    }
  }

  /**
   * Everything about one atomic write: counts, key and value sizes, and the totals as Deno
   * computes them (§7: check keys, mutation keys, and key plus value of each mutation that
   * carries one, plus each payload and 4 bytes per backoff interval).
   */
  public static void checkAtomicWrite(AtomicWrite write) {
    if (write.checks().size() > MAX_CHECKS) {
      throw new KvLimitException("too many checks in one atomic operation: "
          + write.checks().size() + " (max " + MAX_CHECKS + ")");
    }
    int operations = write.mutations().size() + write.enqueues().size();
    if (operations > MAX_MUTATIONS) {
      throw new KvLimitException("too many mutations and enqueues in one atomic operation: "
          + operations + " (max " + MAX_MUTATIONS + ")");
    }
    long total = 0;
    long totalKeys = 0;
    for (Check c : write.checks()) {
      checkWriteKeyLength(c.key().length());
      total += c.key().length();
    }
    for (Mutation m : write.mutations()) {
      int keyLength = m.key().length();
      checkWriteKeyLength(keyLength);
      total += keyLength;
      int valueLength = valueLength(m);
      if (valueLength >= 0) {
        checkValue(valueLength);
        total += keyLength + valueLength;
        totalKeys += keyLength;
      }
    }
    for (Enqueue e : write.enqueues()) {
      checkPayload(e.payload().size());
      for (RawKey k : e.keysIfUndelivered()) {
        checkDeadLetterKey(k.length());
      }
      if (e.backoffSchedule() != null) {
        checkBackoffSchedule(e.backoffSchedule());
      }
      total += e.payload().size() + 4L * e.effectiveBackoff().size();
    }
    if (total > MAX_TOTAL_MUTATION_BYTES) {
      throw new KvLimitException("total mutation size too large: " + total
          + " bytes (max " + MAX_TOTAL_MUTATION_BYTES + ")");
    }
    if (totalKeys > MAX_TOTAL_KEY_BYTES) {
      throw new KvLimitException("total key size too large: " + totalKeys
          + " bytes (max " + MAX_TOTAL_KEY_BYTES + ")");
    }
  }

  private static int valueLength(Mutation m) {
    return m.value() == null ? -1 : m.value().size();
  }

  private static void checkWriteKeyLength(int length) {
    if (length == 0) {
      throw new KvLimitException("key cannot be empty");
    }
    if (length > MAX_WRITE_KEY_BYTES) {
      throw keyTooLarge(length);
    }
  }

  private static KvLimitException keyTooLarge(int length) {
    return new KvLimitException("key too large for write: " + length
        + " bytes (max " + MAX_WRITE_KEY_BYTES + ")");
  }
}
