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
    return PostgresEngine.open(config(dir));
  }

  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    return PostgresEngine.open(config(dir).queuePoll(queuePoll));
  }

  /** The schema of {@code dir}, made the first time a test opens an engine there. */
  private static PostgresConfig config(Path dir) {
    String schema = SCHEMAS.computeIfAbsent(dir, d -> TestPostgres.freshSchema("contract"));
    return PostgresConfig.of(TestPostgres.url()).schema(schema);
  }

  @Override
  public boolean persistent() {
    return true;
  }
}
