package dev.kvasir;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.key.KeyRange;
import java.util.Arrays;
import java.util.Objects;

/**
 * Which keys a {@link Kv#list list} visits, in Deno's four shapes (docs/keys.md §7):
 *
 * <pre>{@code
 * ListSelector.prefix(KvKey.of("users"))                          // every key under ["users"]
 * ListSelector.prefix(KvKey.of("users")).withStart(KvKey.of("users", "m"))   // … from "m" on
 * ListSelector.prefix(KvKey.of("users")).withEnd(KvKey.of("users", "m"))     // … before "m"
 * ListSelector.range(KvKey.of("a"), KvKey.of("b"))               // [a, b)
 * }</pre>
 *
 * The prefix key itself is not part of a prefix list. Immutable; invalid shapes fail when built.
 */
public final class ListSelector {
  private final KvKey prefix;
  private final KvKey start;
  private final KvKey end;
  private final KeyRange range;

  private ListSelector(KvKey prefix, KvKey start, KvKey end) {
    this.prefix = prefix;
    this.start = start;
    this.end = end;
    if (prefix == null) {
      if (start.compareTo(end) > 0) {
        throw new KvArgumentException(
            "Start key is greater than end key: " + start + " > " + end);
      }
      this.range = KeyRange.of(start.encode(), end.encode());
    } else if (start != null) {
      requireUnder(prefix, start, "Start");
      this.range = KeyRange.prefixFrom(prefix.encode(), start.encode());
    } else if (end != null) {
      requireUnder(prefix, end, "End");
      this.range = KeyRange.prefixUntil(prefix.encode(), end.encode());
    } else {
      this.range = KeyRange.prefix(prefix.encode());
    }
  }

  /** Every key that strictly extends {@code prefix}; the empty prefix selects every key. */
  public static ListSelector prefix(KvKey prefix) {
    return new ListSelector(Objects.requireNonNull(prefix, "prefix"), null, null);
  }

  /**
   * Keys from {@code start} (inclusive) to {@code end} (exclusive).
   *
   * @throws KvArgumentException if {@code start} sorts after {@code end}
   */
  public static ListSelector range(KvKey start, KvKey end) {
    return new ListSelector(null, Objects.requireNonNull(start, "start"),
        Objects.requireNonNull(end, "end"));
  }

  /**
   * This prefix selector, starting at {@code start} (inclusive).
   *
   * @throws KvArgumentException if this is not a plain prefix selector, or {@code start}
   *     does not strictly extend the prefix
   */
  public ListSelector withStart(KvKey start) {
    requirePlainPrefix();
    return new ListSelector(prefix, Objects.requireNonNull(start, "start"), null);
  }

  /**
   * This prefix selector, ending before {@code end}.
   *
   * @throws KvArgumentException if this is not a plain prefix selector, or {@code end}
   *     does not strictly extend the prefix
   */
  public ListSelector withEnd(KvKey end) {
    requirePlainPrefix();
    return new ListSelector(prefix, null, Objects.requireNonNull(end, "end"));
  }

  /** The encoded range {@code [start, end)} this selector covers. */
  public KeyRange keyRange() {
    return range;
  }

  /** The prefix of a prefix selection, or null for a range. */
  KvKey prefix() {
    return prefix;
  }

  /**
   * The bytes every key of the selection starts with, which cursors leave out (§8): the
   * encoded prefix, or for a range the longest common byte prefix of its bounds.
   */
  byte[] cursorPrefix() {
    if (prefix != null) {
      return prefix.encode();
    }
    byte[] a = start.encode();
    byte[] b = end.encode();
    int mismatch = Arrays.mismatch(a, b);
    return Arrays.copyOf(a, mismatch < 0 ? a.length : mismatch);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ListSelector other && Objects.equals(prefix, other.prefix)
        && Objects.equals(start, other.start) && Objects.equals(end, other.end);
  }

  @Override
  public int hashCode() {
    return Objects.hash(prefix, start, end);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    if (prefix != null) {
      sb.append("prefix: ").append(prefix);
    }
    if (start != null) {
      sb.append(prefix != null ? ", " : "").append("start: ").append(start);
    }
    if (end != null) {
      sb.append(prefix != null || start != null ? ", " : "").append("end: ").append(end);
    }
    return sb.append('}').toString();
  }

  private static void requireUnder(KvKey prefix, KvKey key, String which) {
    if (key.size() <= prefix.size() || !key.startsWith(prefix)) {
      throw new KvArgumentException(
          which + " key is not in the keyspace defined by prefix: " + key + " under " + prefix);
    }
  }

  private void requirePlainPrefix() {
    if (prefix == null) {
      throw new KvArgumentException(
          "Selector must specify either 'prefix' or both 'start' and 'end' key: " + this);
    }
    if (start != null || end != null) {
      throw new KvArgumentException("Selector can not specify both 'start' and 'end' key"
          + " when specifying 'prefix': " + this);
    }
  }
}
