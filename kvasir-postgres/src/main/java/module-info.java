/** The scale-out engine: many processes share one PostgreSQL database. */
module dev.kvasir.postgres {
  exports dev.kvasir.postgres;

  requires transitive dev.kvasir.core;
  requires dev.kvasir.jdbc;
  requires org.slf4j;
  requires transitive java.sql;
  requires org.postgresql.jdbc;
  requires com.zaxxer.hikari;

  provides dev.kvasir.spi.EngineProvider with dev.kvasir.postgres.PostgresEngineProvider;
}
