package dev.kvasir.postgres;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.Commit;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.jdbc.QueueRows;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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
 *   <li>the sets as one multi-row upsert and the deletes as one statement, reading the version
 *       just set; then the enqueues.
 * </ol>
 *
 * The first statement locks the {@code data_version} row (commit order across instances; in
 * READ COMMITTED every later statement then sees every earlier commit): an explicit lock if the
 * first write has checks, else its version update. The batch ends with its {@code commit_log}
 * row, which carries the {@code NOTIFY}. Writes with sums, minimums, maximums or versionstamped
 * keys need values or versions on the client first and go through the interactive path instead
 * ({@link #accepts}).
 */
final class Pipeline {
  private final Sql sql;
  private final StringBuilder text = new StringBuilder();
  private final List<Object> params = new ArrayList<>();
  private final List<Integer> versionStatements = new ArrayList<>();
  private final List<Integer> increments = new ArrayList<>();
  private int statements;
  private boolean locked;

  /** An array parameter: its PostgreSQL element type and elements. */
  private record SqlArray(String type, Object[] elements) {}

  Pipeline(Sql sql) {
    this.sql = sql;
  }

  /** Whether {@code write} can be sent without reading anything first. */
  static boolean accepts(AtomicWrite write) {
    if (write.idempotencyKey() != null) {
      return false; // its key is looked up first (Commit)
    }
    for (Mutation m : write.mutations()) {
      if (m.kind() != Mutation.Kind.SET && m.kind() != Mutation.Kind.DELETE) {
        return false;
      }
    }
    return true;
  }

  /** Appends write number {@code task} of the batch, whose version is {@code increment} higher. */
  void add(int task, AtomicWrite write, int increment) {
    if (!locked && !write.checks().isEmpty()) {
      // Checks must see every commit before this one: lock first. Without checks, the
      // version update below takes the lock.
      statement(sql.lockVersion);
    }
    locked = true;
    long now = System.currentTimeMillis();
    for (Check c : write.checks()) {
      if (c.versionstamp() == null) {
        statement(sql.checkAbsent, task, c.key().sharedBytes(), now);
      } else {
        statement(sql.checkVersion, task, c.key().sharedBytes(), versionOf(c.versionstamp()), now);
      }
    }
    versionStatements.add(statements);
    increments.add(increment);
    statement(sql.bumpVersion, (long) increment);
    // Only the last mutation of a key counts, so the sets go as one multi-row upsert and the
    // deletes as one statement, in either order.
    Map<RawKey, Mutation> last = new LinkedHashMap<>();
    for (Mutation m : write.mutations()) {
      last.remove(m.key());
      last.put(m.key(), m);
    }
    List<Mutation.Set> sets = new ArrayList<>();
    List<byte[]> deletes = new ArrayList<>();
    for (Mutation m : last.values()) {
      if (m instanceof Mutation.Set set) {
        sets.add(set);
      } else {
        deletes.add(m.key().sharedBytes());
      }
    }
    if (!sets.isEmpty()) {
      byte[][] keys = new byte[sets.size()][];
      byte[][] values = new byte[sets.size()][];
      Integer[] encodings = new Integer[sets.size()];
      Long[] expirations = new Long[sets.size()];
      for (int i = 0; i < keys.length; i++) {
        Mutation.Set set = sets.get(i);
        keys[i] = set.key().sharedBytes();
        values[i] = set.value().sharedBytes();
        encodings[i] = set.value().code();
        expirations[i] = set.expireAt() == null ? -1L : set.expireAt().toEpochMilli();
      }
      statement(sql.upsertMany, new SqlArray("bytea", keys), new SqlArray("bytea", values),
          new SqlArray("int4", encodings), new SqlArray("int8", expirations));
    }
    if (!deletes.isEmpty()) {
      statement(sql.deleteMany, new SqlArray("bytea", deletes.toArray(new byte[0][])));
    }
    for (Enqueue e : write.enqueues()) {
      QueuedMessage m = Commit.message(e);
      statement(sql.queueAdd, QueueRows.values(m.dueMs(), m));
    }
  }

  /** Appends the commit-log row and, if {@code payload} is not null, the notification. */
  void finish(UUID commitId, String payload) {
    long now = System.currentTimeMillis();
    if (payload == null) {
      statement(sql.logCommit, commitId, now);
    } else {
      statement(sql.logCommitAndNotify, commitId, now, sql.channel, payload);
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

  /** Binds one parameter by its Java type. */
  static void set(PreparedStatement p, int index, Object v) throws SQLException {
    if (v instanceof byte[] b) {
      p.setBytes(index, b);
    } else if (v instanceof Long l) {
      p.setLong(index, l);
    } else if (v instanceof Integer n) {
      p.setInt(index, n);
    } else if (v instanceof UUID u) {
      p.setObject(index, u, Types.OTHER);
    } else if (v instanceof SqlArray a) {
      p.setArray(index, p.getConnection().createArrayOf(a.type(), a.elements()));
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

  /** The keys write {@code write} changes (no versionstamped keys on this path). */
  static List<RawKey> keys(AtomicWrite write) {
    List<RawKey> out = new ArrayList<>(write.mutations().size());
    for (Mutation m : write.mutations()) {
      out.add(m.key());
    }
    return out;
  }

  /** The commit version a check expects; -1, which no row has, if no commit of ours has it. */
  private static long versionOf(Versionstamp stamp) {
    return stamp.equals(Versionstamp.ofVersion(stamp.version())) ? stamp.version() : -1;
  }

  private void statement(String sqlText, Object... values) {
    if (statements++ > 0) {
      text.append(";\n");
    }
    text.append(sqlText);
    params.addAll(List.of(values));
  }
}
