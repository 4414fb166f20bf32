package dev.kvasir.postgres;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.Commit;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.jdbc.QueueRows;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.ValueEncoding;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A group commit sent as one multi-statement query: one network round trip for the whole
 * batch. Sent with auto-commit on, the statements up to the protocol's Sync form one implicit
 * transaction, so it applies whole or not at all. Per write, in denokv's order (reference §4):
 *
 * <ol>
 *   <li>each check, as a statement that calls {@code check_failed(write)} (which raises {@code
 *       KV001}) unless the check holds;
 *   <li>{@code update data_version set version = version + n returning version}: each write
 *       gets its own version;
 *   <li>the mutations, reading that version. A write of only sets and deletes is one statement
 *       with the version update (a multi-row upsert and one delete in common table
 *       expressions). Any other write has one statement per mutation, in order: u64 sums,
 *       minimums and maximums by {@code u64_mutate} (which raises {@code KV002} on a stored
 *       value that is not a u64), versionstamped keys formed from the version on the server;
 *   <li>the enqueues.
 * </ol>
 *
 * The first statement locks the {@code data_version} row (commit order across instances; in
 * READ COMMITTED every later statement then sees every earlier commit): an explicit lock if the
 * first write has checks, else its version update. The last write also writes the batch's
 * {@code commit_log} row, which carries the {@code NOTIFY}. Writes with an idempotency key, or
 * with sums of V8 numbers, need reads on the client first and go through the interactive path
 * instead ({@link #accepts}).
 */
final class Pipeline {
  private static final Pattern FAILED_TASK = Pattern.compile("check failed: (\\d+)");
  private static final Pattern NOT_U64 = Pattern.compile("not a u64: (\\d+) (sum|min|max)");

  private final Sql sql;
  private final StringBuilder text = new StringBuilder();
  private final List<Object> params = new ArrayList<>();
  private final List<Integer> versionStatements = new ArrayList<>();
  private final List<Integer> increments = new ArrayList<>();
  private final UUID commitId;
  /** The batch's time, by the database server's clock (docs/postgres.md §11). */
  private final long nowMs;
  private final String payload;
  private int statements;
  private boolean locked;

  /**
   * A pipeline that ends with the {@code commit_log} row {@code commitId} and, if {@code
   * payload} is not null, the notification; its writes happen at {@code nowMs}.
   */
  Pipeline(Sql sql, UUID commitId, long nowMs, String payload) {
    this.sql = sql;
    this.commitId = commitId;
    this.nowMs = nowMs;
    this.payload = payload;
  }

  private static boolean onlySetsAndDeletes(List<Mutation> mutations) {
    for (Mutation m : mutations) {
      if (m.kind() != Mutation.Kind.SET && m.kind() != Mutation.Kind.DELETE) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code write} can be sent without reading anything first. */
  static boolean accepts(AtomicWrite write) {
    if (write.idempotencyKey() != null) {
      return false; // its key is looked up first (Commit)
    }
    for (Mutation m : write.mutations()) {
      boolean server = switch (m.kind()) {
        case SET, DELETE, SET_VERSIONSTAMPED_KEY -> true;
        // u64 arithmetic runs on the server; V8 number sums, and their errors, need Arithmetic
        case SUM, MIN, MAX -> isU64(m.value());
      };
      if (!server) {
        return false;
      }
    }
    return true;
  }

  private static boolean isU64(EncodedValue v) {
    return v.is(ValueEncoding.LE64) && v.sharedBytes().length == 8;
  }

  /**
   * Appends write number {@code task} of the batch, whose version is {@code increment} higher;
   * the {@code last} write also ends the batch.
   */
  void add(int task, AtomicWrite write, int increment, boolean last) {
    if (!locked && !write.checks().isEmpty()) {
      // Checks must see every commit before this one: lock first. Without checks, the
      // version update below takes the lock.
      statement(sql.lockVersion);
    }
    locked = true;
    long now = nowMs;
    for (Check c : write.checks()) {
      if (c.versionstamp() == null) {
        statement(sql.checkAbsent, task, c.key().sharedBytes(), now);
      } else {
        statement(sql.checkVersion, task, c.key().sharedBytes(), versionOf(c.versionstamp()), now);
      }
    }
    versionStatements.add(statements);
    increments.add(increment);
    if (onlySetsAndDeletes(write.mutations())) {
      addSetsAndDeletes(write.mutations(), increment, last, now);
    } else {
      statement(sql.bumpVersion, (long) increment);
      for (Mutation m : write.mutations()) { // each may read what the one before wrote
        addInOrder(task, m, now);
      }
      if (last) {
        statement(payload == null ? sql.logCommit : sql.logCommitAndNotify,
            payload == null ? List.of(commitId, now)
                : List.of(commitId, now, sql.channel, payload));
      }
    }
    for (Enqueue e : write.enqueues()) {
      QueuedMessage m = Commit.message(e);
      statement(sql.queueAdd, QueueRows.values(m.dueMs(), m));
    }
  }

  /**
   * A write of sets and deletes as one statement: the version update, then the sets as one
   * upsert and the deletes as one delete, all reading the new version; for the last write also
   * the commit-log row and the notification. Only the last mutation of a key counts, so a key
   * is either set or deleted, and the order of the two does not matter.
   */
  private void addSetsAndDeletes(List<Mutation> mutations, int increment, boolean last,
      long now) {
    Map<RawKey, Mutation> lastOfKey = new LinkedHashMap<>();
    for (Mutation m : mutations) {
      lastOfKey.remove(m.key());
      lastOfKey.put(m.key(), m);
    }
    List<Mutation> sets = new ArrayList<>();
    List<byte[]> deletes = new ArrayList<>();
    for (Mutation m : lastOfKey.values()) {
      if (m.kind() == Mutation.Kind.SET) {
        sets.add(m);
      } else {
        deletes.add(m.key().sharedBytes());
      }
    }
    StringBuilder q = new StringBuilder(sql.writeVersion);
    List<Object> values = new ArrayList<>();
    values.add((long) increment);
    if (sets.size() == 1) { // a plain row: no arrays to build and for the server to unpack
      Mutation set = sets.get(0);
      q.append(sql.writeSetOne);
      values.addAll(List.of(set.key().sharedBytes(), set.value().sharedBytes(),
          set.value().code(), Expiry.of(set.expireAt())));
    } else if (!sets.isEmpty()) {
      q.append(sql.writeSetMany);
      values.addAll(setArrays(sets));
    }
    if (!deletes.isEmpty()) {
      q.append(sql.writeDelete);
      values.add(deletes.toArray(new byte[0][]));
    }
    if (last) {
      q.append(sql.writeLog);
      values.addAll(List.of(commitId, now));
    }
    if (last && payload != null) {
      q.append(sql.writeResultAndNotify);
      values.addAll(List.of(sql.channel, payload));
    } else {
      q.append(sql.writeResult);
    }
    statement(q.toString(), values);
  }

  /** The sets' keys, values, encodings and expiries as four array parameters. */
  private static List<Object> setArrays(List<Mutation> sets) {
    byte[][] keys = new byte[sets.size()][];
    byte[][] values = new byte[sets.size()][];
    int[] encodings = new int[sets.size()];
    long[] expirations = new long[sets.size()];
    for (int i = 0; i < keys.length; i++) {
      Mutation set = sets.get(i);
      keys[i] = set.key().sharedBytes();
      values[i] = set.value().sharedBytes();
      encodings[i] = set.value().code();
      expirations[i] = Expiry.of(set.expireAt());
    }
    return List.of(keys, values, encodings, expirations);
  }

  /** One mutation as a statement of its own, for writes whose order matters. */
  private void addInOrder(int task, Mutation m, long now) {
    byte[] key = m.key().sharedBytes();
    switch (m.kind()) {
      case SET -> statement(sql.upsertOne, List.of(key, m.value().sharedBytes(),
          m.value().code(), Expiry.of(m.expireAt())));
      case DELETE -> statement(sql.delete, List.of(key));
      case SET_VERSIONSTAMPED_KEY -> statement(sql.upsertStamped, List.of(key,
          m.value().sharedBytes(), m.value().code(), Expiry.of(m.expireAt())));
      case SUM, MIN, MAX -> statement(sql.mutateU64, List.of(task,
          m.kind().name().toLowerCase(Locale.ROOT), key, m.value().sharedBytes(), now));
    }
  }

  String text() {
    return text.toString();
  }

  void bind(PreparedStatement p) throws SQLException {
    for (int i = 0; i < params.size(); i++) {
      set(p, i + 1, params.get(i));
    }
  }

  /**
   * Binds one parameter by its Java type. Java arrays ({@code byte[][]}, {@code int[]}, {@code
   * long[]}) go through {@code setObject}, which the driver sends in binary; a {@code
   * java.sql.Array} would go as text, every byte of a key spelled as hex (docs/postgres.md §5).
   */
  static void set(PreparedStatement p, int index, Object v) throws SQLException {
    if (v instanceof byte[] b) {
      p.setBytes(index, b);
    } else if (v instanceof Long l) {
      p.setLong(index, l);
    } else if (v instanceof Integer n) {
      p.setInt(index, n);
    } else if (v instanceof UUID u) {
      p.setObject(index, u, Types.OTHER);
    } else if (v instanceof byte[][] || v instanceof int[] || v instanceof long[]) {
      p.setObject(index, v);
    } else {
      p.setString(index, (String) v);
    }
  }

  /** Reads the version each write got from the results of the executed statement. */
  long[] versions(PreparedStatement p, boolean firstIsResultSet) throws SQLException {
    long[] out = new long[versionStatements.size()];
    int next = 0;
    boolean isResultSet = firstIsResultSet;
    for (int i = 0; i < statements && next < out.length; i++) {
      if (i > 0) {
        isResultSet = p.getMoreResults();
      }
      if (i == versionStatements.get(next)) {
        if (!isResultSet) {
          throw new SQLException("no version in the result of statement " + i);
        }
        try (ResultSet r = p.getResultSet()) {
          r.next();
          out[next++] = r.getLong(1);
        }
      }
    }
    return out;
  }

  /** The versions of the writes given the final one, for a commit found in the log. */
  long[] versionsEndingAt(long last) {
    long[] out = new long[increments.size()];
    long v = last;
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = v;
      v -= increments.get(i);
    }
    return out;
  }

  /** The keys write {@code write} changed, given its version. */
  static List<RawKey> keys(AtomicWrite write, long version) {
    Versionstamp stamp = Versionstamp.ofVersion(version);
    List<RawKey> out = new ArrayList<>(write.mutations().size());
    for (Mutation m : write.mutations()) {
      out.add(m.keyIn(stamp));
    }
    return out;
  }

  /** The index of the write whose check failed, from {@code check_failed}'s error. */
  static int failedTask(SQLException e) {
    return Integer.parseInt(match(FAILED_TASK, e).group(1));
  }

  /** Which write's sum, min or max met a stored value that is not a u64. */
  record NotU64(int task, String op) {}

  /** The write and mutation from {@code u64_mutate}'s error. */
  static NotU64 notU64(SQLException e) {
    Matcher m = match(NOT_U64, e);
    return new NotU64(Integer.parseInt(m.group(1)), m.group(2));
  }

  private static Matcher match(Pattern pattern, SQLException e) {
    Matcher m = pattern.matcher(String.valueOf(e.getMessage()));
    if (!m.find()) {
      throw new IllegalStateException("unexpected error from a pipelined commit: "
          + e.getMessage(), e);
    }
    return m;
  }

  /** The commit version a check expects; -1, which no row has, if no commit of ours has it. */
  private static long versionOf(Versionstamp stamp) {
    return stamp.equals(Versionstamp.ofVersion(stamp.version())) ? stamp.version() : -1;
  }

  private void statement(String sqlText, Object... values) {
    statement(sqlText, List.of(values));
  }

  private void statement(String sqlText, List<?> values) {
    if (statements++ > 0) {
      text.append(";\n");
    }
    text.append(sqlText);
    params.addAll(values);
  }
}
