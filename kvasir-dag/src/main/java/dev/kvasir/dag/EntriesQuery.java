package dev.kvasir.dag;

import java.util.Objects;

/**
 * Which keys {@link Pail#entries} returns: all of them, those starting with a prefix, and/or
 * those within bounds ({@code gt}/{@code gte}, {@code lt}/{@code lte}). Every given condition
 * must hold (pail 0.6 ORs some of them, E8; this does not). Comparison is JavaScript string
 * order. Immutable; each method returns a narrowed copy.
 *
 * <pre>{@code EntriesQuery.prefix("users/").gte("users/m").lt("users/p")}</pre>
 */
public final class EntriesQuery {
  private static final EntriesQuery ALL = new EntriesQuery("", null, false, null, false);

  private final String prefix;
  private final String lower;
  private final boolean lowerInclusive;
  private final String upper;
  private final boolean upperInclusive;

  private EntriesQuery(String prefix, String lower, boolean lowerInclusive, String upper,
      boolean upperInclusive) {
    this.prefix = prefix;
    this.lower = lower;
    this.lowerInclusive = lowerInclusive;
    this.upper = upper;
    this.upperInclusive = upperInclusive;
  }

  public static EntriesQuery all() {
    return ALL;
  }

  public static EntriesQuery prefix(String prefix) {
    return ALL.withPrefix(prefix);
  }

  public EntriesQuery withPrefix(String p) {
    return new EntriesQuery(Objects.requireNonNull(p, "prefix"), lower, lowerInclusive, upper,
        upperInclusive);
  }

  public EntriesQuery gt(String key) {
    return lowerBound(key, false);
  }

  public EntriesQuery gte(String key) {
    return lowerBound(key, true);
  }

  public EntriesQuery lt(String key) {
    return upperBound(key, false);
  }

  public EntriesQuery lte(String key) {
    return upperBound(key, true);
  }

  private EntriesQuery lowerBound(String key, boolean inclusive) {
    if (lower != null) {
      throw new IllegalArgumentException("give one lower bound: gt or gte, not both");
    }
    return new EntriesQuery(prefix, Objects.requireNonNull(key, "bound"), inclusive, upper,
        upperInclusive);
  }

  private EntriesQuery upperBound(String key, boolean inclusive) {
    if (upper != null) {
      throw new IllegalArgumentException("give one upper bound: lt or lte, not both");
    }
    return new EntriesQuery(prefix, lower, lowerInclusive, Objects.requireNonNull(key,
        "bound"), inclusive);
  }

  /** Whether {@code key} is selected. */
  public boolean matches(String key) {
    if (!key.startsWith(prefix)) {
      return false;
    }
    if (lower != null) {
      int c = key.compareTo(lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = key.compareTo(upper);
      return c < 0 || (c == 0 && upperInclusive);
    }
    return true;
  }

  /**
   * Whether some key strictly longer than {@code base} and starting with it (a sub-shard's
   * keys) can be selected.
   */
  boolean mayMatchBelow(String base) {
    if (!base.startsWith(prefix) && !prefix.startsWith(base)) {
      return false;
    }
    if (lower != null && base.compareTo(lower) < 0 && !lower.startsWith(base)) {
      return false;
    }
    return upper == null || base.compareTo(upper) < 0;
  }

  /** Whether {@code key} and everything after it in order are past the selection. */
  boolean isPastEnd(String key) {
    if (upper != null) {
      int c = key.compareTo(upper);
      if (c > 0 || (c == 0 && !upperInclusive)) {
        return true;
      }
    }
    return !prefix.isEmpty() && key.compareTo(prefix) > 0 && !key.startsWith(prefix);
  }

  /** The smallest key that can be selected (to seek to), or "" for none. */
  String seek() {
    return lower != null && lower.compareTo(prefix) > 0 ? lower : prefix;
  }

  @Override
  public String toString() {
    return "EntriesQuery[prefix=" + prefix + (lower == null ? "" : (lowerInclusive ? ", gte="
        : ", gt=") + lower) + (upper == null ? "" : (upperInclusive ? ", lte=" : ", lt=")
        + upper) + "]";
  }
}
