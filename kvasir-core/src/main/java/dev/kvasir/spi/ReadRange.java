package dev.kvasir.spi;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One range of a snapshot read: the keys in {@code [start, end)}, at most {@code limit} of them,
 * from the start (ascending) or, if {@code reverse}, from the end (descending).
 */
public record ReadRange(RawKey start, RawKey end, int limit, boolean reverse) {
  public ReadRange {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be greater than 0: " + limit);
    }
  }

  /** The most entries {@code ranges} can return together: the sum of their limits. */
  public static long entriesAsked(List<ReadRange> ranges) {
    long entries = 0;
    for (ReadRange range : ranges) {
      entries += range.limit();
    }
    return entries;
  }

  /** The single key {@code k}: {@code [k, k‖00)}, limit 1. */
  public static ReadRange single(RawKey key) {
    return new ReadRange(key, key.append(0x00), 1, false);
  }

  /**
   * Whether the range can hold no key but its start: {@code [k, k‖00)}, as {@link #single} and
   * every get ask; nothing lies between a key and that successor. Such a read is a lookup.
   */
  public boolean isOneKey() {
    byte[] s = start.sharedBytes();
    byte[] e = end.sharedBytes();
    return e.length == s.length + 1 && e[s.length] == 0
        && Arrays.equals(s, 0, s.length, e, 0, s.length);
  }

  /** Whether {@code key} lies in {@code [start, end)}. */
  public boolean contains(RawKey key) {
    return key.compareTo(start) >= 0 && key.compareTo(end) < 0;
  }
}
