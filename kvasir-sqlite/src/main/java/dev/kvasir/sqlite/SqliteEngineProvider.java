package dev.kvasir.sqlite;

import dev.kvasir.KvOptions;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;

/**
 * Opens a {@link SqliteEngine} for file paths and for {@code ":memory:"} (outranking the memory
 * engine there), as Deno does for every location that is not a URL.
 */
public final class SqliteEngineProvider implements EngineProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public SqliteEngineProvider() {}

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public String locations() {
    return "a file path or \":memory:\"";
  }

  @Override
  public int priority(String location) {
    return location.isEmpty() || location.contains("://") ? -1 : 10;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    return SqliteEngine.open(SqliteConfig.from(location, options));
  }
}
