package dev.kvasir.base;

/**
 * How fresh a read must be. Embedded engines always read the latest committed state; a remote
 * database may answer {@link #EVENTUAL} reads from a nearby replica that lags behind.
 */
public enum Consistency {
  /** The read sees every commit acknowledged before it started. The default. */
  STRONG,
  /** The read may miss recent commits, in exchange for lower latency. */
  EVENTUAL
}
