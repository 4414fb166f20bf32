package dev.kvasir.sqlite;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;

/** The SQLite engine on {@code ":memory:"} (one connection, no reader pool). */
class SqliteMemoryEngineTest extends KvEngineContract {
  @Override
  public KvEngine openEngine(Path dir) {
    return SqliteEngine.open(SqliteConfig.of(":memory:"));
  }
}
