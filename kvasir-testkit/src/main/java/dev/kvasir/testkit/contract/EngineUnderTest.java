package dev.kvasir.testkit.contract;

import dev.kvasir.spi.KvEngine;
import java.nio.file.Path;
import java.time.Duration;

/** The engine a contract theme runs against, and what it can do. */
public interface EngineUnderTest {
  /** A new, empty engine. Called once per test, and again by tests that need a second one. */
  KvEngine openEngine(Path dir) throws Exception;

  /**
   * A new, empty engine whose queue listeners, when nothing wakes them, look again only every
   * {@code queuePoll}: with an hour, the tests of {@link QueueWakeUpContract} show that each
   * event that makes a message available wakes a waiting listener. Every engine with a queue
   * overrides it; the tests fail, saying so, for one that does not.
   */
  default KvEngine openEngine(Path dir, Duration queuePoll) throws Exception {
    throw new UnsupportedOperationException("this engine's test does not say how to open it"
        + " with a queue poll: override EngineUnderTest.openEngine(Path, Duration)");
  }

  /** Whether data survives closing the engine and opening it again in the same directory. */
  default boolean persistent() {
    return false;
  }

  /** Whether the engine delivers queue messages; one that does not refuses enqueues. */
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
