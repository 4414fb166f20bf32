package dev.kvasir.engine;

import java.time.Instant;

/**
 * When entries stop existing (docs/sqlite.md §6): denokv stores an expiry in epoch
 * milliseconds, {@link #NEVER} (−1) for none, and an entry is gone from its expiry millisecond
 * on, whether or not a sweep has deleted it yet. SQL engines state the same rule in their
 * statements ({@code expiration_ms < 0 or expiration_ms > now}).
 */
public final class Expiry {
  /** The stored expiry of an entry that never expires. */
  public static final long NEVER = -1;

  /**
   * The longest an engine waits between sweeps, as Deno: other processes write expiring rows
   * that no commit here announces.
   */
  public static final long SWEEP_AT_LEAST_EVERY_MS = 60_000;

  private Expiry() {}

  /** The stored form of {@code expireAt} ({@code null} for never). */
  public static long of(Instant expireAt) {
    return expireAt == null ? NEVER : expireAt.toEpochMilli();
  }

  /** Whether an entry with stored expiry {@code expireAtMs} exists at {@code nowMs}. */
  public static boolean isLive(long expireAtMs, long nowMs) {
    return expireAtMs == NEVER || expireAtMs > nowMs;
  }
}
