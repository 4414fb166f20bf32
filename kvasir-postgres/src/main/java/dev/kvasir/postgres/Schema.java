package dev.kvasir.postgres;

import dev.kvasir.base.KvException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Creates and upgrades Kvasir's tables in one schema. The tables mirror the SQLite engine's
 * (docs/sqlite.md §3): {@code kv}, {@code data_version}, {@code queue}, {@code
 * queue_running} and {@code migration_state}, plus {@code commit_log} and {@code commit_ids}. Many instances may open
 * the database at once: the whole migration runs in one transaction holding an advisory lock on
 * the schema's name, so one instance migrates and the others then find the work done.
 */
final class Schema {
  /** Migration {@code i} takes a schema from version {@code i} to {@code i + 1}. */
  private static final List<List<String>> MIGRATIONS = List.of(List.of(
      "create table {s}.data_version (k integer primary key, version bigint not null)",
      "insert into {s}.data_version (k, version) values (0, 0)",
      "create table {s}.kv (k bytea primary key, v bytea not null,"
          + " v_encoding integer not null, version bigint not null,"
          + " expiration_ms bigint not null default -1)",
      "create index kv_expiration_ms_idx on {s}.kv (expiration_ms) where expiration_ms >= 0",
      "create table {s}.queue (ts bigint not null, id text not null, data bytea not null,"
          + " backoff_schedule text not null, keys_if_undelivered text not null,"
          + " primary key (ts, id))",
      "create table {s}.queue_running (deadline bigint not null, id text primary key,"
          + " data bytea not null, backoff_schedule text not null,"
          + " keys_if_undelivered text not null)",
      "create index queue_running_deadline_idx on {s}.queue_running (deadline)",
      // One row per committed transaction of the writer, kept a few minutes, so a writer whose
      // connection broke mid-commit can learn whether the commit happened.
      "create table {s}.commit_log (id uuid primary key, version bigint not null,"
          + " at_ms bigint not null)",
      "create index commit_log_at_ms_idx on {s}.commit_log (at_ms)",
      // Ends a pipelined commit whose check failed; the message names the write.
      "create function {s}.check_failed(task integer) returns integer language plpgsql as"
          + " $$ begin raise exception using errcode = 'KV001', message = 'check failed: '"
          + " || task; end $$"),
      List.of(
          // The idempotency keys of recent commits (AtomicWrite.idempotencyKey) with their
          // versions, so that a retried write is answered instead of applied twice.
          "create table {s}.commit_ids (id text primary key, version bigint not null,"
              + " at_ms bigint not null)",
          "create index commit_ids_at_ms_idx on {s}.commit_ids (at_ms)"),
      List.of(
          // u64 sum, min and max on the server, so that a commit with them is one round trip
          // (Pipeline); the rules are docs/atomic.md §3. A u64 is 8 bytes, little-endian.
          "create function {s}.u64_value(b bytea) returns numeric language plpgsql immutable"
              + " strict as $$ declare n numeric := 0; begin"
              + " if length(b) <> 8 then raise exception 'a u64 is 8 bytes, not %', length(b);"
              + " end if;"
              + " for i in reverse 7..0 loop n := n * 256 + get_byte(b, i); end loop;"
              + " return n; end $$",
          "create function {s}.u64_bytes(n numeric) returns bytea language plpgsql immutable"
              + " strict as $$ declare b bytea := decode('0000000000000000', 'hex'); begin"
              + " for i in 0..7 loop b := set_byte(b, i, (n % 256)::integer);"
              + " n := div(n, 256); end loop; return b; end $$",
          // Applies one mutation of write number task at the current commit version. A stored
          // value that is not a u64 raises KV002, whose message names the write and the
          // mutation ('sum', 'min' or 'max').
          "create function {s}.u64_mutate(task integer, op text, key bytea, operand bytea,"
              + " now_ms bigint) returns integer language plpgsql as $$"
              + " declare stored bytea; stored_encoding integer; a numeric; b numeric;"
              + " outcome bytea := operand; begin"
              + " select v, v_encoding into stored, stored_encoding from {s}.kv"
              + " where k = key and (expiration_ms < 0 or expiration_ms > now_ms);"
              + " if found then"
              + " if stored_encoding <> 2 then raise exception using errcode = 'KV002',"
              + " message = 'not a u64: ' || task || ' ' || op; end if;"
              + " a := {s}.u64_value(stored); b := {s}.u64_value(operand);"
              + " outcome := {s}.u64_bytes(case op when 'sum' then"
              + " mod(a + b, 18446744073709551616) when 'min' then least(a, b)"
              + " else greatest(a, b) end);"
              + " end if;"
              + " insert into {s}.kv (k, v, v_encoding, version, expiration_ms)"
              + " values (key, outcome, 2, (select version from {s}.data_version where k = 0),"
              + " -1) on conflict (k) do update set v = excluded.v, v_encoding = 2,"
              + " version = excluded.version, expiration_ms = -1;"
              + " return 0; end $$"),
      List.of(
          // Until when some instance has promised to listen (ChangeFeed): a commit notifies
          // only while this lies ahead, since every NOTIFY serializes commits across the whole
          // cluster (docs/postgres.md §4).
          "alter table {s}.data_version add column listened_until timestamptz not null"
              + " default '-infinity'"));

  static final int VERSION = MIGRATIONS.size();
  private static final Set<String> TABLES = Set.of("kv", "data_version", "queue",
      "queue_running", "commit_log", "commit_ids", "migration_state");

  private Schema() {}

  /**
   * Brings the schema to {@link #VERSION}, creating it if needed.
   *
   * @throws KvException if the schema holds tables that are not Kvasir's, or was migrated by a
   *     newer Kvasir; nothing is changed then
   */
  static void migrate(Connection c, String schema, String where) throws SQLException {
    c.setAutoCommit(false);
    try {
      try (PreparedStatement lock = c.prepareStatement("select pg_advisory_xact_lock(?)")) {
        lock.setLong(1, lockKey(schema));
        lock.execute();
      }
      Set<String> tables = tables(c, schema);
      int version = 0;
      if (tables.contains("migration_state")) {
        version = storedVersion(c, schema);
      } else if (!tables.isEmpty()) {
        throw new KvException(where + " is not a Kvasir database: schema " + schema
            + " holds the tables " + tables + " but no migration_state; choose another schema");
      }
      if (version > VERSION) {
        throw new KvException(where + " was created by a newer Kvasir (schema version " + version
            + ", this one knows up to " + VERSION + "); upgrade Kvasir to open it");
      }
      Set<String> foreign = new HashSet<>(tables);
      foreign.removeAll(TABLES);
      if (!foreign.isEmpty()) {
        throw new KvException(where + ": schema " + schema + " holds tables that are not"
            + " Kvasir's: " + foreign + "; give Kvasir a schema of its own");
      }
      if (version == VERSION) {
        c.commit();
        return;
      }
      try (Statement s = c.createStatement()) {
        String q = "\"" + schema + "\"";
        s.execute("create schema if not exists " + q);
        s.execute("create table if not exists " + q + ".migration_state"
            + " (k integer primary key, version integer not null)");
        for (int i = version; i < VERSION; i++) {
          for (String ddl : MIGRATIONS.get(i)) {
            s.execute(ddl.replace("{s}", q));
          }
        }
        s.execute("insert into " + q + ".migration_state (k, version) values (0, " + VERSION
            + ") on conflict (k) do update set version = excluded.version");
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      if (Database.privilegeRefused(e)) {
        throw lacksPrivilege(c, where, e, "Creating or upgrading schema " + schema + " takes"
            + " CREATE on the database, or owning the schema; using it once its owner made it"
            + " takes USAGE on it and SELECT, INSERT, UPDATE and DELETE on its tables");
      }
      throw e;
    } catch (RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  /**
   * For an engine that only reads: checks that the schema holds Kvasir's tables at {@link
   * #VERSION}, changing nothing (docs/postgres.md §8).
   *
   * @throws KvException if it does not, naming what is missing or which version it is at
   */
  static void check(Connection c, String schema, String where) throws SQLException {
    Set<String> tables = tables(c, schema);
    if (!tables.contains("migration_state")) {
      throw new KvException(where + ": there is no Kvasir database in schema " + schema
          + (tables.isEmpty() ? "" : " (it holds " + tables + ")") + "; opened for reading"
          + " only, it is not created");
    }
    int version;
    try {
      version = storedVersion(c, schema);
    } catch (SQLException e) {
      if (Database.privilegeRefused(e)) {
        throw lacksPrivilege(c, where, e, "Reading schema " + schema + " takes USAGE on it and"
            + " SELECT on its tables");
      }
      throw e;
    }
    if (version != VERSION) {
      throw new KvException(where + ": schema " + schema + " is at version " + version
          + (version < VERSION ? "; open it once for writing, as a role that may change its"
              + " tables, to upgrade it to version " + VERSION
              : ", made by a newer Kvasir (this one knows up to " + VERSION + ")"));
    }
  }

  /** The error for {@code refused}: the role, PostgreSQL's words, what the use {@code takes}. */
  private static KvException lacksPrivilege(Connection c, String where, SQLException refused,
      String takes) throws SQLException {
    return new KvException(where + ": the role " + c.getMetaData().getUserName()
        + " lacks a privilege (" + refused.getMessage() + "). " + takes, refused);
  }

  /**
   * The schema's tables and views, from the catalog rather than information_schema, which shows
   * only those the role has a privilege on: a role without any would otherwise take a Kvasir
   * schema for an empty one and try to create its tables (docs/postgres.md §8).
   */
  private static Set<String> tables(Connection c, String schema) throws SQLException {
    Set<String> out = new HashSet<>();
    try (PreparedStatement p = c.prepareStatement("select c.relname from pg_catalog.pg_class c"
        + " join pg_catalog.pg_namespace n on n.oid = c.relnamespace"
        + " where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm', 'f')")) {
      p.setString(1, schema);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          out.add(r.getString(1));
        }
      }
    }
    return out;
  }

  private static int storedVersion(Connection c, String schema) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "select version from \"" + schema + "\".migration_state where k = 0")) {
      return r.next() ? r.getInt(1) : 0;
    }
  }

  /** A stable 64-bit key for the schema's advisory lock. */
  static long lockKey(String schema) {
    return Notification.fnv1a(("kvasir schema " + schema).getBytes(StandardCharsets.UTF_8));
  }
}
