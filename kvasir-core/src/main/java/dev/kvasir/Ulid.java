package dev.kvasir;

import dev.kvasir.base.KvException;
import java.security.SecureRandom;
import java.time.Instant;

/**
 * ULIDs, the sortable key parts Deno's key-space page recommends (docs/keys.md §9): 26
 * characters of Crockford's base 32, the first 10 the creation time in milliseconds, the other
 * 16 eighty random bits. Strings of them sort as their times do, so {@code
 * KvKey.of("events", Ulid.next())} lists events in the order they were made.
 *
 * <pre>{@code
 * Ulid.next();        // 01H76YTWK3YBV020S6MP69TBEQ
 * Ulid.monotonic();   // 01H76YTWK3YBV020S6MP69TBER: within one millisecond, the last one plus one
 * }</pre>
 *
 * Thread-safe.
 */
public final class Ulid {
  private static final char[] DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final long MAX_TIME = (1L << 48) - 1;
  private static final SecureRandom RANDOM = new SecureRandom();

  // The last monotonic ULID: its time, and its 80 random bits as 16 high and 64 low ones.
  private static long lastTime = -1; // guarded by Ulid.class
  private static long lastHigh; // guarded by Ulid.class
  private static long lastLow; // guarded by Ulid.class

  private Ulid() {}

  /** A new ULID for now, with fresh random bits. */
  public static String next() {
    return next(System.currentTimeMillis());
  }

  /**
   * A new ULID for {@code epochMillis}, with fresh random bits.
   *
   * @throws KvException for a time before 1970 or after the year 10889, which 48 bits cannot
   *     hold
   */
  public static String next(long epochMillis) {
    checkTime(epochMillis);
    return encode(epochMillis, RANDOM.nextLong() & 0xffff, RANDOM.nextLong());
  }

  /**
   * A ULID greater than every one this method returned before in this process: for a new
   * millisecond fresh random bits, within the same millisecond (or when the clock went back)
   * the previous time with its random bits plus one, as Deno's {@code monotonicUlid()} makes
   * them.
   *
   * @throws KvException in the unlikely case that the random bits overflow within one
   *     millisecond (2^80 ULIDs)
   */
  public static synchronized String monotonic() {
    long now = System.currentTimeMillis();
    checkTime(now);
    if (now > lastTime) {
      lastTime = now;
      lastHigh = RANDOM.nextLong() & 0xffff;
      lastLow = RANDOM.nextLong();
    } else {
      lastLow++;
      if (lastLow == 0) {
        lastHigh++;
        if (lastHigh > 0xffff) {
          lastHigh = 0xffff;
          lastLow = -1;
          throw new KvException("monotonic ULID: the random bits of millisecond " + lastTime
              + " are exhausted");
        }
      }
    }
    return encode(lastTime, lastHigh, lastLow);
  }

  /**
   * The time a ULID was made at.
   *
   * @throws KvException if {@code ulid} is not 26 characters of Crockford's base 32
   */
  public static Instant time(String ulid) {
    if (ulid.length() != 26) {
      throw new KvException("a ULID has 26 characters, not " + ulid.length() + ": " + ulid);
    }
    long time = 0;
    for (int i = 0; i < 10; i++) {
      time = time << 5 | digit(ulid, i);
    }
    for (int i = 10; i < 26; i++) {
      digit(ulid, i);
    }
    if (time > MAX_TIME) {
      throw new KvException("not a ULID: its time overflows 48 bits: " + ulid);
    }
    return Instant.ofEpochMilli(time);
  }

  private static int digit(String ulid, int index) {
    char c = Character.toUpperCase(ulid.charAt(index));
    for (int d = 0; d < DIGITS.length; d++) {
      if (DIGITS[d] == c) {
        return d;
      }
    }
    throw new KvException("not a ULID: '" + ulid.charAt(index) + "' at " + index
        + " is no Crockford base 32 digit: " + ulid);
  }

  private static void checkTime(long epochMillis) {
    if (epochMillis < 0 || epochMillis > MAX_TIME) {
      throw new KvException("a ULID holds times from 1970 on in 48 bits of milliseconds, not "
          + epochMillis);
    }
  }

  /** Ten digits of time, then sixteen of the 80 bits {@code high:low}, five bits a digit. */
  private static String encode(long time, long high, long low) {
    char[] out = new char[26];
    for (int i = 9; i >= 0; i--) {
      out[i] = DIGITS[(int) (time & 31)];
      time >>>= 5;
    }
    // The 80 bits from the last digit backwards: each digit takes the low five bits, and the
    // number moves five bits down, the high part's low bits into the low part's top.
    for (int i = 25; i >= 10; i--) {
      out[i] = DIGITS[(int) (low & 31)];
      low = low >>> 5 | (high & 31) << 59;
      high >>>= 5;
    }
    return new String(out);
  }
}
