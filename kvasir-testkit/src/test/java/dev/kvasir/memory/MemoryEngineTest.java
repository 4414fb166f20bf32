package dev.kvasir.memory;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;
import java.time.Duration;

/** The memory engine against the shared contract (it is also the differential reference). */
class MemoryEngineTest extends KvEngineContract {
  @Override
  public KvEngine openEngine(Path dir) {
    return MemoryEngine.open();
  }

  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    return MemoryEngine.open(queuePoll);
  }
}
