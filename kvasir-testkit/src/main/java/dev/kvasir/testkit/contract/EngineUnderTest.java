package dev.kvasir.testkit.contract;

import dev.kvasir.spi.KvEngine;
import java.nio.file.Path;

/** The engine a contract theme runs against, and what it can do. */
public interface EngineUnderTest {
  /** A new, empty engine. Called once per test, and again by tests that need a second one. */
  KvEngine openEngine(Path dir) throws Exception;

  /** Whether data survives closing the engine and opening it again in the same directory. */
  default boolean persistent() {
    return false;
  }

  /** Whether the engine delivers queue messages; KV Connect does not. */
  default boolean supportsQueues() {
    return true;
  }

  /**
   * Whether the engine lists its entries with their expiries and stores entries with their own
   * versionstamps ({@code dump}, {@code load}, {@code committedVersion}); a client of a remote
   * database cannot.
   */
  default boolean copiesEntries() {
    return true;
  }

  /**
   * Whether the engine reports its own meters (sweeps, queue depth); a client of a remote
   * database does not, its server does.
   */
  default boolean reportsEngineMeters() {
    return true;
  }
}
