package dev.kvasir.sqlite;

import dev.kvasir.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.QueueJson;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.Sums;
import dev.kvasir.value.EncodedValue;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * Applies one atomic write inside the writer's transaction, in denokv's order (reference §4):
 * checks, version bump, mutations, enqueues. The caller runs it in a savepoint, so an exception
 * (a sum on a string) undoes all of it.
 */
final class Commits {
  private Commits() {}

  /** The written keys and the commit's versionstamp, or empty if a check failed. */
  record Applied(Versionstamp versionstamp, List<RawKey> keys, long earliestExpiry,
      boolean enqueued) {}

  static Optional<Applied> apply(Tx tx, AtomicWrite write, Random random) throws SQLException {
    long now = System.currentTimeMillis();
    String id = write.idempotencyKey();
    if (id != null) {
      long recorded = recordedVersion(tx, id);
      if (recorded >= 0) { // applied before, and answered as it was then
        return Optional.of(new Applied(Versionstamp.ofVersion(recorded), List.of(),
            Long.MAX_VALUE, false));
      }
    }
    for (Check check : write.checks()) {
      Row row = live(tx, check.key(), now);
      Versionstamp current = row == null ? null : Versionstamp.ofVersion(row.version);
      if (!Objects.equals(current, check.versionstamp())) {
        return Optional.empty();
      }
    }
    long version = tx.bumpVersion(1 + random.nextInt(9));
    Versionstamp stamp = Versionstamp.ofVersion(version);
    List<RawKey> keys = new ArrayList<>(write.mutations().size());
    long earliestExpiry = Long.MAX_VALUE;
    // Consecutive sets go out as one multi-row statement; order with other mutations is kept.
    List<SetRow> run = new ArrayList<>();
    for (Mutation m : write.mutations()) {
      if (m instanceof Mutation.Set s) {
        run.add(new SetRow(s.key(), s.value(), s.expireAt()));
      } else if (m instanceof Mutation.SetVersionstampedKey s) {
        run.add(new SetRow(s.keyFor(stamp), s.value(), s.expireAt()));
      } else {
        earliestExpiry = Math.min(earliestExpiry, setAll(tx, run, version, keys));
        if (m instanceof Mutation.Delete d) {
          PreparedStatement p = tx.prepare(Sql.DELETE);
          p.setBytes(1, d.key().sharedBytes());
          p.executeUpdate();
        } else {
          Row row = live(tx, m.key(), now);
          set(tx, m.key(), Sums.apply(m, row == null ? null : row.value), version, -1);
        }
        keys.add(m.key());
      }
    }
    earliestExpiry = Math.min(earliestExpiry, setAll(tx, run, version, keys));
    for (Enqueue e : write.enqueues()) {
      enqueue(tx, e);
    }
    if (id != null) {
      PreparedStatement p = tx.prepare(Sql.COMMIT_IDS_ADD);
      p.setString(1, id);
      p.setLong(2, version);
      p.setLong(3, now);
      p.executeUpdate();
    }
    return Optional.of(new Applied(stamp, keys, earliestExpiry, !write.enqueues().isEmpty()));
  }

  /** A set waiting to be written; {@code expireAt} null means it never expires. */
  private record SetRow(RawKey key, EncodedValue value, Instant expireAt) {
    long expirationMs() {
      return expireAt == null ? -1 : expireAt.toEpochMilli();
    }
  }

  /**
   * Writes and clears {@code rows}, {@link Sql#SET_ROWS_MAX} per statement: one statement per
   * row costs SQLite and the driver about as much again as the insert itself. Adds the keys to
   * {@code keys}; returns the earliest expiry, or {@code Long.MAX_VALUE}.
   */
  private static long setAll(Tx tx, List<SetRow> rows, long version, List<RawKey> keys)
      throws SQLException {
    long earliestExpiry = Long.MAX_VALUE;
    for (int from = 0; from < rows.size(); from += Sql.SET_ROWS_MAX) {
      int n = Math.min(Sql.SET_ROWS_MAX, rows.size() - from);
      PreparedStatement p = tx.prepare(n == 1 ? Sql.SET : Sql.setRows(n));
      for (int i = 0; i < n; i++) {
        SetRow row = rows.get(from + i);
        bindRow(p, 5 * i, row.key(), row.value(), version, row.expirationMs());
        keys.add(row.key());
        if (row.expireAt() != null) {
          earliestExpiry = Math.min(earliestExpiry, row.expirationMs());
        }
      }
      p.executeUpdate();
    }
    rows.clear();
    return earliestExpiry;
  }

  static void set(Tx tx, RawKey key, EncodedValue value, long version, long expirationMs)
      throws SQLException {
    PreparedStatement p = tx.prepare(Sql.SET);
    bindRow(p, 0, key, value, version, expirationMs);
    p.executeUpdate();
  }

  /** Binds one row of {@link Sql#SET} or {@link Sql#setRows}, after {@code at} parameters. */
  private static void bindRow(PreparedStatement p, int at, RawKey key, EncodedValue value,
      long version, long expirationMs) throws SQLException {
    p.setBytes(at + 1, key.sharedBytes());
    p.setBytes(at + 2, value.sharedBytes());
    p.setInt(at + 3, value.code());
    p.setLong(at + 4, version);
    p.setLong(at + 5, expirationMs);
  }

  static void enqueue(Tx tx, Enqueue e) throws SQLException {
    PreparedStatement p = tx.prepare(Sql.QUEUE_ADD);
    p.setLong(1, e.deadline().toEpochMilli());
    p.setString(2, UUID.randomUUID().toString());
    p.setBytes(3, e.payload().sharedBytes());
    // Deno writes the default schedule when none was given (reference §5).
    p.setString(4, QueueJson.backoff(e.effectiveBackoff()));
    p.setString(5, QueueJson.keys(e.keysIfUndelivered()));
    p.executeUpdate();
  }

  /** A row that exists and has not expired. */
  static final class Row {
    final EncodedValue value;
    final long version;

    Row(EncodedValue value, long version) {
      this.value = value;
      this.version = version;
    }
  }

  static Row live(Tx tx, RawKey key, long now) throws SQLException {
    PreparedStatement p = tx.prepare(Sql.GET_LIVE);
    p.setBytes(1, key.sharedBytes());
    p.setLong(2, now);
    try (ResultSet r = p.executeQuery()) {
      if (!r.next()) {
        return null;
      }
      return new Row(EncodedValue.stored(r.getInt(2), r.getBytes(1)),
          r.getLong(3));
    }
  }

  /** The version recorded for idempotency key {@code id}, or −1; creates the table if needed. */
  private static long recordedVersion(Tx tx, String id) throws SQLException {
    tx.execute(Sql.COMMIT_IDS_CREATE);
    PreparedStatement p = tx.prepare(Sql.COMMIT_IDS_FIND);
    p.setString(1, id);
    try (ResultSet r = p.executeQuery()) {
      return r.next() ? r.getLong(1) : -1;
    }
  }
}
