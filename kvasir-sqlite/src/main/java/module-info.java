/** The embedded engine: SQLite files that Deno opens too ({@code Kv.open("app.sqlite3")}). */
module dev.kvasir.sqlite {
  exports dev.kvasir.sqlite;

  requires transitive dev.kvasir.core;
  requires dev.kvasir.jdbc;
  requires org.slf4j;
  requires java.sql;
  requires org.xerial.sqlitejdbc;

  provides dev.kvasir.spi.EngineProvider with dev.kvasir.sqlite.SqliteEngineProvider;
}
