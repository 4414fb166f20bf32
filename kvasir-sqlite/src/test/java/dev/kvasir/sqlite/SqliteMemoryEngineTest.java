package dev.kvasir.sqlite;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;
import java.time.Duration;

/** The SQLite engine on {@code ":memory:"} (one connection, no reader pool). */
class SqliteMemoryEngineTest extends KvEngineContract {
  @Override
  public KvEngine openEngine(Path dir) {
    return SqliteEngine.open(SqliteConfig.of(":memory:"));
  }

  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    return SqliteEngine.open(SqliteConfig.of(":memory:").queuePoll(queuePoll));
  }
}
