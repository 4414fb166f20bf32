package dev.kvasir.postgres;

import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The PostgreSQL engine on a real server against the shared contract and the differential test
 * with the memory engine. Each test directory maps to a schema of its own, so reopening the same
 * directory reopens the same data.
 */
class PostgresEngineIT extends KvEngineContract {
  private static final Map<Path, String> SCHEMAS = new ConcurrentHashMap<>();

  @Override
  public KvEngine openEngine(Path dir) {
    String schema = SCHEMAS.computeIfAbsent(dir, d -> TestPostgres.freshSchema("contract"));
    return PostgresEngine.open(PostgresConfig.of(TestPostgres.url()).schema(schema));
  }

  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    String schema = SCHEMAS.computeIfAbsent(dir, d -> TestPostgres.freshSchema("contract"));
    return PostgresEngine.open(PostgresConfig.of(TestPostgres.url()).schema(schema)
        .queuePoll(queuePoll));
  }

  @Override
  public boolean persistent() {
    return true;
  }
}
