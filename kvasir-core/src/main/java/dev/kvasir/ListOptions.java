package dev.kvasir;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvArgumentException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link Kv#list list} iterates (docs/list.md). Immutable; each setter returns
 * a copy:
 *
 * <pre>{@code
 * ListOptions.defaults().limit(10).reverse(true).cursor(previous.cursor())
 * }</pre>
 *
 * <ul>
 *   <li>{@code limit}: the most entries to return; none by default.
 *   <li>{@code reverse}: descending key order.
 *   <li>{@code cursor}: resume after the entry a previous iteration's {@link
 *       KvListIterator#cursor()} named; empty means from the beginning.
 *   <li>{@code batchSize}: entries per engine read; by default the limit, at most 500, or 100,
 *       and each later batch twice the last, up to 500. At most 1000.
 *   <li>{@code consistency}: {@link Consistency#STRONG} by default.
 *   <li>{@code depth}: only keys so many parts below a prefix selector's prefix; no limit by
 *       default.
 * </ul>
 */
public final class ListOptions {
  /**
   * The largest batch size Kvasir chooses: Deno's cap on its default, and the size later
   * batches grow to when the caller did not choose one (docs/list.md §2).
   */
  static final int MAX_DEFAULT_BATCH = 500;
  private static final ListOptions DEFAULTS =
      new ListOptions(0, false, "", 0, Consistency.STRONG, 0);

  private final int limit;
  private final boolean reverse;
  private final String cursor;
  private final int batchSize;
  private final Consistency consistency;
  private final int depth;

  private ListOptions(int limit, boolean reverse, String cursor, int batchSize,
      Consistency consistency, int depth) {
    this.limit = limit;
    this.reverse = reverse;
    this.cursor = cursor;
    this.batchSize = batchSize;
    this.consistency = consistency;
    this.depth = depth;
  }

  public static ListOptions defaults() {
    return DEFAULTS;
  }

  /** @throws KvArgumentException unless {@code limit > 0} */
  public ListOptions limit(int limit) {
    if (limit <= 0) {
      throw new KvArgumentException("Limit must be a positive integer: received " + limit);
    }
    return new ListOptions(limit, reverse, cursor, batchSize, consistency, depth);
  }

  public ListOptions reverse(boolean reverse) {
    return new ListOptions(limit, reverse, cursor, batchSize, consistency, depth);
  }

  /** A cursor from {@link KvListIterator#cursor()}; {@code ""} or {@code null} for none. */
  public ListOptions cursor(@Nullable String cursor) {
    return new ListOptions(limit, reverse, cursor == null ? "" : cursor, batchSize, consistency, depth);
  }

  /** @throws KvArgumentException unless {@code batchSize > 0} */
  public ListOptions batchSize(int batchSize) {
    if (batchSize <= 0) {
      throw new KvArgumentException(
          "batchSize must be a positive integer: received " + batchSize);
    }
    return new ListOptions(limit, reverse, cursor, batchSize, consistency, depth);
  }

  public ListOptions consistency(Consistency consistency) {
    return new ListOptions(limit, reverse, cursor, batchSize,
        Objects.requireNonNull(consistency, "consistency"), depth);
  }

  /**
   * Only keys at most {@code depth} parts below a prefix selector's prefix, as a directory
   * listing: with depth 1 under {@code ["users"]}, {@code ["users", "alice"]} but not {@code
   * ["users", "alice", "posts"]}. Deeper entries are skipped a subtree at a time, not read one
   * by one.
   *
   * @throws KvArgumentException unless {@code depth > 0}
   */
  public ListOptions depth(int depth) {
    if (depth <= 0) {
      throw new KvArgumentException("depth must be a positive integer: received " + depth);
    }
    return new ListOptions(limit, reverse, cursor, batchSize, consistency, depth);
  }

  /** The depth limit, or 0 for none. */
  public int depth() {
    return depth;
  }

  /** The limit, or 0 for none. */
  public int limit() {
    return limit;
  }

  public boolean reverse() {
    return reverse;
  }

  public String cursor() {
    return cursor;
  }

  /** Whether the caller chose the batch size; if not, later batches grow (KvListIterator). */
  boolean batchSizeGiven() {
    return batchSize > 0;
  }

  /** The batch size used: as set, else Deno's default {@code min(limit ?? 100, 500)}. */
  public int batchSize() {
    if (batchSize > 0) {
      return batchSize;
    }
    return Math.min(limit > 0 ? limit : 100, MAX_DEFAULT_BATCH);
  }

  public Consistency consistency() {
    return consistency;
  }

  @Override
  public String toString() {
    return "ListOptions[limit=" + limit + ", reverse=" + reverse + ", cursor=" + cursor
        + ", batchSize=" + batchSize() + ", consistency=" + consistency
        + (depth > 0 ? ", depth=" + depth : "") + "]";
  }
}
