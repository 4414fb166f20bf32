/**
 * What the JDBC engines (SQLite, PostgreSQL) share: cached prepared statements, rows of denokv's
 * {@code kv} table, and the JSON columns of its queue rows. Not an API for applications.
 */
module dev.kvasir.jdbc {
  exports dev.kvasir.jdbc;

  requires transitive dev.kvasir.core;
  requires transitive java.sql;
}
