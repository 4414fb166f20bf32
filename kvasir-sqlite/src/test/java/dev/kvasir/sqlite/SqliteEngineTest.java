package dev.kvasir.sqlite;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;
import java.time.Duration;

/** The SQLite engine, on a file, against the shared contract and the differential test. */
class SqliteEngineTest extends KvEngineContract {
  @Override
  public KvEngine openEngine(Path dir) {
    return SqliteEngine.open(config(dir));
  }

  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    return SqliteEngine.open(config(dir).queuePoll(queuePoll));
  }

  private static SqliteConfig config(Path dir) {
    return SqliteConfig.of(dir.resolve("kv.sqlite3").toString());
  }

  @Override
  public boolean persistent() {
    return true;
  }
}
