package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * denokv's schema and migrations, statement for statement (docs/sqlite.md §3), so that
 * {@code sqlite_master} of a fresh Kvasir file equals a fresh Deno file. Opening checks the file
 * before changing anything: a file of another application, of a newer schema or that is not a
 * database fails and stays as it was.
 */
final class Schema {
  /** The number of migrations this version knows. */
  static final int LATEST = 3;

  private static final String CREATE_MIGRATION_TABLE = """
      create table if not exists migration_state(
        k integer not null primary key,
        version integer not null
      )""";

  private static final List<List<String>> MIGRATIONS = List.of(
      List.of("""
          create table data_version (
            k integer primary key,
            version integer not null
          )""",
          "insert into data_version (k, version) values (0, 0)",
          """
          create table kv (
            k blob primary key,
            v blob not null,
            v_encoding integer not null,
            version integer not null
          ) without rowid"""),
      List.of("""
          create table queue (
            ts integer not null,
            id text not null,
            data blob not null,
            backoff_schedule text not null,
            keys_if_undelivered blob not null,

            primary key (ts, id)
          )""",
          """
          create table queue_running(
            deadline integer not null,
            id text not null,
            data blob not null,
            backoff_schedule text not null,
            keys_if_undelivered blob not null,

            primary key (deadline, id)
          )"""),
      List.of(
          "alter table kv add column seq integer not null default 0",
          "alter table data_version add column seq integer not null default 0",
          "alter table kv add column expiration_ms integer not null default -1",
          "create index kv_expiration_ms_idx on kv (expiration_ms)"));

  private Schema() {}

  /**
   * Verifies that the database is empty or a Deno KV database of a known migration level.
   *
   * @throws KvException naming the file and the problem; nothing was written
   * @throws SQLException only when another process holds the file's lock, to be retried
   */
  static void verify(Connection c, String path) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select name from sqlite_master where type = 'table'")) {
      while (r.next()) {
        tables.add(r.getString(1));
      }
    } catch (SQLException e) {
      rethrowIfBusy(e);
      throw new KvException("cannot open " + path + " as a Deno KV database: " + e.getMessage(), e);
    }
    if (tables.isEmpty()) {
      return;
    }
    if (!tables.contains("migration_state")) {
      throw new KvException(path + " is not a Deno KV database: it has tables " + tables
          + " but no migration_state; it was left unchanged");
    }
    int level = level(c, path);
    if (level > LATEST) {
      throw new KvException(path + " was written by a newer Deno KV or Kvasir: schema migration"
          + " level " + level + ", this version knows up to " + LATEST + "; it was left unchanged");
    }
  }

  /**
   * Verifies, without writing, that the file is a Deno KV database at the current schema, as a
   * read-only open needs: it cannot create or upgrade the schema.
   *
   * @throws KvException naming the file and what to do
   */
  static void verifyCurrent(Connection c, String path) throws SQLException {
    verify(c, path);
    int level;
    try {
      level = level(c, path);
    } catch (KvException e) {
      throw new KvException(path + " is not a Deno KV database (it has no schema); a read-only"
          + " open cannot create one", e);
    }
    if (level < LATEST) {
      throw new KvException(path + " has an older Deno KV schema (level " + level + ", current "
          + LATEST + "); open it once for writing to upgrade it");
    }
  }

  /** Applies the missing migrations in one transaction; the caller verified the file first. */
  static void migrate(Connection c, String path) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("begin immediate");
      try {
        s.execute(CREATE_MIGRATION_TABLE);
        int level = level(c, path);
        for (int i = level; i < MIGRATIONS.size(); i++) {
          for (String statement : MIGRATIONS.get(i)) {
            s.execute(statement);
          }
          s.execute("replace into migration_state (k, version) values(0, " + (i + 1) + ")");
        }
        s.execute("commit");
      } catch (SQLException | RuntimeException e) {
        s.execute("rollback");
        throw e;
      }
    }
  }

  private static int level(Connection c, String path) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select version from migration_state where k = 0")) {
      return r.next() ? r.getInt(1) : 0;
    } catch (SQLException e) {
      rethrowIfBusy(e);
      throw new KvException("cannot read the schema level of " + path + ": " + e.getMessage(), e);
    }
  }

  private static void rethrowIfBusy(SQLException e) throws SQLException {
    if (Busy.isBusy(e)) {
      throw e;
    }
  }
}
