package dev.kvasir.postgres;

/**
 * The statements of the engine, with the schema name filled in. Keys are {@code bytea}, which
 * PostgreSQL compares as unsigned bytes ({@code memcmp}, then length) with no collation, so
 * index order is Deno's key order (docs/keys.md). Expiry as in the SQLite schema:
 * {@code expiration_ms} is {@code -1} for "never".
 */
final class Sql {
  final String schema;
  final String channel;

  final String lockVersion;
  final String setVersion;
  final String get;
  final String getAny;
  final String set;
  final String delete;
  final String deleteExpired;
  final String earliestExpiry;
  final String checkAbsent;
  final String checkVersion;
  final String bumpVersion;
  final String logCommit;
  final String logCommitAndNotify;
  final String upsertOne;
  final String writeVersion;
  final String writeSetOne;
  final String writeSetMany;
  final String writeDelete;
  final String writeLog;
  final String writeResult;
  final String writeResultAndNotify;
  final String upsertStamped;
  final String mutateU64;
  final String findCommit;
  final String pruneCommitLog;
  final String findCommitId;
  final String addCommitId;
  final String pruneCommitIds;
  final String rangeForward;
  final String rangeReverse;
  final String dumpLive;
  final String commitVersion;
  final String promiseToListen;

  final String queueAdd;
  final String queueTake;
  final String queueEarliest;
  final String queueStats;
  final String runningRemove;
  final String runningClaim;
  final String runningClaimExpired;
  final String runningExtend;
  final String runningPastDeadline;

  Sql(String schema) {
    this.schema = schema;
    // One channel per schema: Kvasir databases in one PostgreSQL database do not wake each other.
    this.channel = "kvasir_" + schema;
    String s = "\"" + schema + "\".";
    String kv = s + "kv";
    String live = "(expiration_ms < 0 or expiration_ms > ?)";
    lockVersion = "select version from " + s + "data_version where k = 0 for update";
    setVersion = "update " + s + "data_version set version = ? where k = 0";
    get = "select k, v, v_encoding, version from " + kv + " where k = ? and " + live;
    getAny = "select k, v, v_encoding, version from " + kv + " where k = any(?) and " + live;
    String upsert = " on conflict (k) do update set v = excluded.v,"
        + " v_encoding = excluded.v_encoding, version = excluded.version,"
        + " expiration_ms = excluded.expiration_ms";
    set = "insert into " + kv + " (k, v, v_encoding, version, expiration_ms)"
        + " values (?, ?, ?, ?, ?)" + upsert;
    delete = "delete from " + kv + " where k = ?";
    deleteExpired = "delete from " + kv + " where expiration_ms >= 0 and expiration_ms <= ?"
        + " returning k";
    earliestExpiry = "select min(expiration_ms) from " + kv + " where expiration_ms >= 0";
    String currentVersion = "(select version from " + s + "data_version where k = 0)";
    checkAbsent = "select " + s + "check_failed(?) where exists (select 1 from " + kv
        + " where k = ? and " + live + ")";
    checkVersion = "select " + s + "check_failed(?) where not exists (select 1 from " + kv
        + " where k = ? and version = ? and " + live + ")";
    bumpVersion = "update " + s + "data_version set version = version + ? where k = 0"
        + " returning version, listened_until";
    // The notification goes out only while some instance has promised to listen; the
    // data_version row is locked by this transaction, so no promise lands in between
    // (docs/postgres.md §4).
    String notifyIfHeard = " left join lateral (select pg_notify(?, ?)"
        + " where d.listened_until > now()) n on true";
    logCommit = "insert into " + s + "commit_log (id, version, at_ms) values (?, "
        + currentVersion + ", ?)";
    // The same row, with the notification sent from a subquery: one statement less.
    logCommitAndNotify = "insert into " + s + "commit_log (id, version, at_ms)"
        + " select ?, d.version, ? from " + s + "data_version d" + notifyIfHeard
        + " where d.k = 0";
    upsertOne = "insert into " + kv + " (k, v, v_encoding, version, expiration_ms)"
        + " values (?, ?, ?, " + currentVersion + ", ?)" + upsert;
    // One statement that commits a write of sets and deletes (Pipeline): the new version as
    // d, changes that read it, and the version as the result.
    writeVersion = "with d as (" + bumpVersion + ")";
    writeSetOne = ", s as (insert into " + kv + " (k, v, v_encoding, version, expiration_ms)"
        + " select ?, ?, ?, d.version, ? from d" + upsert + ")";
    writeSetMany = ", s as (insert into " + kv + " (k, v, v_encoding, version, expiration_ms)"
        + " select nk, nv, ne, d.version, nx from d,"
        + " unnest(?::bytea[], ?::bytea[], ?::integer[], ?::bigint[]) as n(nk, nv, ne, nx)"
        + upsert + ")";
    writeDelete = ", x as (delete from " + kv + " where k = any(?::bytea[]))";
    writeLog = ", l as (insert into " + s + "commit_log (id, version, at_ms)"
        + " select ?, d.version, ? from d)";
    writeResult = " select d.version from d";
    writeResultAndNotify = " select d.version from d" + notifyIfHeard;
    // The key is the prefix, then a string part with the commit's versionstamp: 16 hex digits
    // of the version and 0000 (Mutation.SetVersionstampedKey, docs/atomic.md §4).
    upsertStamped = "insert into " + kv + " (k, v, v_encoding, version, expiration_ms)"
        + " select ?::bytea || decode('02', 'hex')"
        + " || convert_to(lpad(to_hex(d.version), 16, '0') || '0000', 'UTF8')"
        + " || decode('00', 'hex'), ?, ?, d.version, ? from " + s + "data_version d"
        + " where d.k = 0" + upsert;
    mutateU64 = "select " + s + "u64_mutate(?, ?, ?, ?, ?)";
    findCommit = "select version from " + s + "commit_log where id = ?";
    pruneCommitLog = "delete from " + s + "commit_log where at_ms < ?";
    findCommitId = "select version from " + s + "commit_ids where id = ?";
    addCommitId = "insert into " + s + "commit_ids (id, version, at_ms) values (?, ?, ?)";
    pruneCommitIds = "delete from " + s + "commit_ids where at_ms < ?";
    String range = "select k, v, v_encoding, version from " + kv
        + " where k >= ? and k < ? and " + live + " order by k";
    rangeForward = range + " limit ?";
    rangeReverse = range + " desc limit ?";
    dumpLive = "select k, v, v_encoding, version, expiration_ms from " + kv + " where " + live
        + " order by k";
    commitVersion = "select version from " + s + "data_version where k = 0";
    // Promises to listen for ? more seconds; answers whether the last promise (any
    // instance's) still held, that is whether every commit since it was made has notified.
    // The row is read through the join, before it is updated: a subquery of the returning
    // list would find the row already replaced by this statement, and answer null.
    promiseToListen = "with last as (select listened_until from " + s + "data_version"
        + " where k = 0 for update) update " + s + "data_version d set listened_until ="
        + " greatest(d.listened_until, clock_timestamp() + make_interval(secs => ?))"
        + " from last where d.k = 0 returning last.listened_until > clock_timestamp()";

    String q = s + "queue";
    String r = s + "queue_running";
    queueAdd = "insert into " + q + " (ts, id, data, backoff_schedule, keys_if_undelivered)"
        + " values (?, ?, ?, ?, ?)";
    // Skip rows other instances are taking; the first due message moves to queue_running.
    queueTake = "with next as (select ts, id from " + q + " where ts <= ? order by ts, id"
        + " limit 1 for update skip locked),"
        + " taken as (delete from " + q + " t using next where t.ts = next.ts and t.id = next.id"
        + " returning t.id, t.data, t.backoff_schedule, t.keys_if_undelivered)"
        + " insert into " + r + " (deadline, id, data, backoff_schedule, keys_if_undelivered)"
        + " select ?, id, data, backoff_schedule, keys_if_undelivered from taken"
        + " returning deadline, id, data, backoff_schedule, keys_if_undelivered";
    queueEarliest = "select min(ts) from " + q;
    queueStats = "select count(*) filter (where ts <= ?), count(*) filter (where ts > ?),"
        + " (select count(*) from " + r + "), min(ts) filter (where ts <= ?) from " + q;
    runningRemove = "delete from " + r + " where id = ?";
    runningClaim = "delete from " + r + " where id = ?"
        + " returning deadline, id, data, backoff_schedule, keys_if_undelivered";
    runningClaimExpired = "delete from " + r + " where id = ? and deadline <= ?"
        + " returning deadline, id, data, backoff_schedule, keys_if_undelivered";
    runningExtend = "update " + r + " set deadline = ? where id = any(?)";
    runningPastDeadline = "select id from " + r + " where deadline <= ?";
  }
}
