package dev.kvasir.sqlite;

/**
 * The statements of the engine. Where denokv has the same statement, the text is denokv's
 * (docs/sqlite.md §5, docs/queues.md §2); reads skip expired rows, and a get reads one key by
 * equality without its {@code k} column.
 */
final class Sql {
  static final String BUMP_VERSION =
      "update data_version set version = version + ? where k = 0 returning version";
  static final String SET_VERSION = "update data_version set version = ? where k = 0";
  static final String COMMIT_VERSION = "select version from data_version where k = 0";
  static final String RANGE_ASC = "select k, v, v_encoding, version from kv where k >= ? and k < ?"
      + " and (expiration_ms < 0 or expiration_ms > ?) order by k asc limit ?";
  static final String RANGE_DESC = "select k, v, v_encoding, version from kv where k >= ?"
      + " and k < ? and (expiration_ms < 0 or expiration_ms > ?) order by k desc limit ?";
  static final String DUMP_LIVE = "select k, v, v_encoding, version, expiration_ms from kv"
      + " where expiration_ms < 0 or expiration_ms > ? order by k asc";
  /** A get: the key is known, so only the value and version are read (§5). */
  static final String GET_VALUE = "select v, v_encoding, version from kv where k = ?"
      + " and (expiration_ms < 0 or expiration_ms > ?)";
  static final String SET = "insert into kv (k, v, v_encoding, version, expiration_ms) values"
      + " (:k, :v, :v_encoding, :version, :expiration_ms) on conflict(k) do update set v = :v,"
      + " v_encoding = :v_encoding, version = :version, expiration_ms = :expiration_ms";
  /** The most rows {@link #setRows} writes in one statement. */
  static final int SET_ROWS_MAX = 64;
  private static final String[] SET_ROWS = new String[SET_ROWS_MAX + 1];

  static {
    for (int n = 2; n <= SET_ROWS_MAX; n++) {
      SET_ROWS[n] = "insert into kv (k, v, v_encoding, version, expiration_ms) values"
          + " (?, ?, ?, ?, ?)" + ", (?, ?, ?, ?, ?)".repeat(n - 1)
          + " on conflict(k) do update set v = excluded.v,"
          + " v_encoding = excluded.v_encoding, version = excluded.version,"
          + " expiration_ms = excluded.expiration_ms";
    }
  }

  /**
   * {@link #SET} for {@code n} rows (2 to {@link #SET_ROWS_MAX}), parameters in groups of five;
   * a key that comes twice takes its last row, as SQLite applies the rows in order.
   */
  static String setRows(int n) {
    return SET_ROWS[n];
  }

  static final String DELETE = "delete from kv where k = ?";
  static final String DELETE_EXPIRED =
      "delete from kv where expiration_ms >= 0 and expiration_ms <= ? returning k";
  static final String EARLIEST_EXPIRATION =
      "select expiration_ms from kv where expiration_ms >= 0 order by expiration_ms limit 1";

  /**
   * Kvasir's own table, beside Deno's (Deno ignores tables it does not know): the idempotency
   * keys of recent commits ({@code AtomicWrite.idempotencyKey}), created on first use.
   */
  static final String COMMIT_IDS_CREATE = "create table if not exists kvasir_commit_ids"
      + " (id text primary key, version integer not null, at_ms integer not null) without rowid";
  static final String COMMIT_IDS_FIND = "select version from kvasir_commit_ids where id = ?";
  static final String COMMIT_IDS_ADD =
      "insert into kvasir_commit_ids (id, version, at_ms) values (?, ?, ?)";
  static final String COMMIT_IDS_PRUNE = "delete from kvasir_commit_ids where at_ms < ?";
  static final String COMMIT_IDS_EXISTS =
      "select 1 from sqlite_master where type = 'table' and name = 'kvasir_commit_ids'";

  static final String QUEUE_ADD = "insert into queue (ts, id, data, backoff_schedule,"
      + " keys_if_undelivered) values(?, ?, ?, ?, ?)";
  static final String QUEUE_NEXT_READY = "select ts, id, data, backoff_schedule,"
      + " keys_if_undelivered from queue where ts <= ? order by ts limit 1";
  static final String QUEUE_EARLIEST = "select ts from queue order by ts limit 1";
  /** Due messages, later ones, running ones, and the due time of the oldest due one. */
  static final String QUEUE_STATS = "select (select count(*) from queue where ts <= ?),"
      + " (select count(*) from queue where ts > ?), (select count(*) from queue_running),"
      + " (select min(ts) from queue where ts <= ?)";
  static final String QUEUE_REMOVE = "delete from queue where id = ?";
  static final String RUNNING_ADD = "insert into queue_running (deadline, id, data,"
      + " backoff_schedule, keys_if_undelivered) values(?, ?, ?, ?, ?)";
  static final String RUNNING_EXTEND = "update queue_running set deadline = ? where id = ?";
  static final String RUNNING_REMOVE = "delete from queue_running where id = ?";
  static final String RUNNING_BY_ID = "select deadline, id, data, backoff_schedule,"
      + " keys_if_undelivered from queue_running where id = ?";
  static final String RUNNING_PAST_DEADLINE =
      "select id from queue_running where deadline <= ? order by deadline limit 100";

  private Sql() {}
}
