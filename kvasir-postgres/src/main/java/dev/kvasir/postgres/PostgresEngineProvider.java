package dev.kvasir.postgres;

import dev.kvasir.base.KvOptions;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;

/** Opens a {@link PostgresEngine} for {@code postgresql://} and {@code postgres://} URLs. */
public final class PostgresEngineProvider implements EngineProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public PostgresEngineProvider() {}

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public String locations() {
    return "postgresql://user:password@host:port/database";
  }

  @Override
  public int priority(String location) {
    return location.startsWith("postgresql://") || location.startsWith("postgres://") ? 10 : -1;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    return PostgresEngine.open(PostgresConfig.from(location, options));
  }

  @Override
  public KvOptions readOnly(KvOptions options) {
    return options.with(PostgresOptions.READ_ONLY, "true");
  }

  @Override
  public boolean takesPassword() {
    return true;
  }

  @Override
  public String displayName() {
    return "PostgreSQL";
  }

  @Override
  public String describe(String location) {
    return PostgresConfig.of(location).describe();
  }
}
