package dev.kvasir.server;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;

/** RemoteEngine → KvServer → SQLite engine, against the shared contract (no queue delivery). */
class RemoteEngineContractTest extends KvEngineContract {
  @Override
  protected KvEngine openEngine(Path dir) {
    return new Served(SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3").toString())));
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  @Override
  protected boolean supportsQueues() {
    return false;
  }
}
