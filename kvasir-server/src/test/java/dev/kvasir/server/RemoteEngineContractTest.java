package dev.kvasir.server;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;
import java.time.Duration;

/**
 * RemoteEngine → KvServer → SQLite engine, against the shared contract, queues included
 * (Kvasir's extension of KV Connect).
 */
class RemoteEngineContractTest extends KvEngineContract {
  @Override
  public KvEngine openEngine(Path dir) {
    return new Served(SqliteEngine.open(config(dir)));
  }

  /**
   * The server's engine with the poll given. Its queue gateway waits in the engine for as long
   * as a client's poll (QueueGateway), so the wake-up theme shows that each wake-up reaches a
   * remote listener through the server: without the SQLite engine's wake on its own enqueues,
   * the enqueue tests here fail.
   */
  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    return new Served(SqliteEngine.open(config(dir).queuePoll(queuePoll)));
  }

  private static SqliteConfig config(Path dir) {
    return SqliteConfig.of(dir.resolve("kv.sqlite3").toString());
  }

  @Override
  public boolean persistent() {
    return true;
  }

  /** KV Connect carries no expiries and takes no versionstamps: copy the server's engine. */
  @Override
  public boolean copiesEntries() {
    return false;
  }

  /** The server's engine measures itself; the client only counts its commits. */
  @Override
  public boolean reportsEngineMeters() {
    return false;
  }
}
