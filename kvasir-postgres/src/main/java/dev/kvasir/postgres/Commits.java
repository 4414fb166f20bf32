package dev.kvasir.postgres;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * Applies one atomic write inside the writer's transaction, in denokv's order (reference §4):
 * checks, new version, mutations, enqueues. An exception (a sum on a string) makes the writer
 * roll the transaction back and run the batch again without this write.
 */
final class Commits {
  private Commits() {}

  /** The commit's versionstamp, the keys it wrote and its earliest expiry. */
  record Applied(Versionstamp versionstamp, List<RawKey> keys, long earliestExpiry) {}

  static Optional<Applied> apply(Tx tx, AtomicWrite write, Random random) throws SQLException {
    long now = System.currentTimeMillis();
    String id = write.idempotencyKey();
    if (id != null) {
      PreparedStatement find = tx.prepare(tx.sql.findCommitId);
      find.setString(1, id);
      try (ResultSet r = find.executeQuery()) {
        if (r.next()) { // applied before, and answered as it was then
          return Optional.of(new Applied(Versionstamp.ofVersion(r.getLong(1)), List.of(),
              Long.MAX_VALUE));
        }
      }
    }
    if (!checksHold(tx, write.checks(), now)) {
      return Optional.empty();
    }
    long version = tx.nextVersion(1 + random.nextInt(9));
    Versionstamp stamp = Versionstamp.ofVersion(version);
    List<RawKey> keys = new ArrayList<>(write.mutations().size());
    long earliestExpiry = Long.MAX_VALUE;
    Mutations batch = new Mutations(tx);
    for (Mutation m : write.mutations()) {
      if (m instanceof Mutation.Set s) {
        earliestExpiry = Math.min(earliestExpiry, batch.set(s.key(), s.value(), version,
            s.expireAt()));
        keys.add(s.key());
      } else if (m instanceof Mutation.SetVersionstampedKey s) {
        RawKey key = s.keyFor(stamp);
        earliestExpiry = Math.min(earliestExpiry, batch.set(key, s.value(), version,
            s.expireAt()));
        keys.add(key);
      } else if (m instanceof Mutation.Delete d) {
        batch.delete(d.key());
        keys.add(d.key());
      } else {
        batch.flush(); // the sum must see the writes before it
        EncodedValue current = live(tx, m.key(), now);
        batch.set(m.key(), Sums.apply(m, current), version, null);
        keys.add(m.key());
      }
    }
    batch.flush();
    for (Enqueue e : write.enqueues()) {
      enqueue(tx, e);
    }
    tx.changed(keys);
    if (!write.enqueues().isEmpty()) {
      tx.enqueued();
    }
    if (earliestExpiry != Long.MAX_VALUE) {
      tx.expiring();
    }
    if (id != null) {
      PreparedStatement add = tx.prepare(tx.sql.addCommitId);
      add.setString(1, id);
      add.setLong(2, version);
      add.setLong(3, now);
      add.executeUpdate();
    }
    return Optional.of(new Applied(stamp, keys, earliestExpiry));
  }

  /** Reads every checked key in one statement and compares versions. */
  private static boolean checksHold(Tx tx, List<Check> checks, long now) throws SQLException {
    if (checks.isEmpty()) {
      return true;
    }
    Map<RawKey, Versionstamp> current = new HashMap<>();
    PreparedStatement p = tx.prepare(tx.sql.getAny);
    byte[][] keys = new byte[checks.size()][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = checks.get(i).key().sharedBytes();
    }
    p.setArray(1, tx.connection.createArrayOf("bytea", keys));
    p.setLong(2, now);
    try (ResultSet r = p.executeQuery()) {
      while (r.next()) {
        current.put(RawKey.wrap(r.getBytes(1)), Versionstamp.ofVersion(r.getLong(4)));
      }
    }
    for (Check check : checks) {
      if (!Objects.equals(current.get(check.key()), check.versionstamp())) {
        return false;
      }
    }
    return true;
  }

  /** The live value of {@code key} in this transaction, or {@code null}. */
  static EncodedValue live(Tx tx, RawKey key, long now) throws SQLException {
    PreparedStatement p = tx.prepare(tx.sql.get);
    p.setBytes(1, key.sharedBytes());
    p.setLong(2, now);
    try (ResultSet r = p.executeQuery()) {
      return r.next() ? EncodedValue.stored(r.getInt(3), r.getBytes(2)) : null;
    }
  }

  static void enqueue(Tx tx, Enqueue e) throws SQLException {
    PreparedStatement p = tx.prepare(tx.sql.queueAdd);
    Object[] row = queueRow(e);
    for (int i = 0; i < row.length; i++) {
      Pipeline.set(p, i + 1, row[i]);
    }
    p.executeUpdate();
  }

  /**
   * The parameters of {@link Sql#queueAdd} for a new message: due time, a fresh id, payload,
   * and the same JSON as denokv's queue rows (reference §5), the default schedule written out.
   */
  static Object[] queueRow(Enqueue e) {
    return new Object[] {e.deadline().toEpochMilli(), UUID.randomUUID().toString(),
        e.payload().sharedBytes(), QueueJson.backoff(e.effectiveBackoff()),
        QueueJson.keys(e.keysIfUndelivered())};
  }

  /**
   * Consecutive sets, or consecutive deletes, sent to the server as one JDBC batch (one round
   * trip); switching kinds flushes, so the mutations apply in order.
   */
  static final class Mutations {
    private final Tx tx;
    private PreparedStatement pending;

    Mutations(Tx tx) {
      this.tx = tx;
    }

    /** Upserts a row; returns its expiry in epoch ms, or {@code Long.MAX_VALUE} for none. */
    long set(RawKey key, EncodedValue value, long version, Instant expireAt)
        throws SQLException {
      PreparedStatement p = switchTo(tx.sql.set);
      p.setBytes(1, key.sharedBytes());
      p.setBytes(2, value.sharedBytes());
      p.setInt(3, value.code());
      p.setLong(4, version);
      p.setLong(5, expireAt == null ? -1 : expireAt.toEpochMilli());
      add(p);
      return expireAt == null ? Long.MAX_VALUE : expireAt.toEpochMilli();
    }

    void delete(RawKey key) throws SQLException {
      PreparedStatement p = switchTo(tx.sql.delete);
      p.setBytes(1, key.sharedBytes());
      add(p);
    }

    private PreparedStatement switchTo(String text) throws SQLException {
      PreparedStatement p = tx.prepare(text);
      if (pending != null && pending != p) {
        flush();
      }
      return p;
    }

    private void add(PreparedStatement p) throws SQLException {
      p.addBatch();
      pending = p;
    }

    void flush() throws SQLException {
      if (pending == null) {
        return;
      }
      pending.executeBatch();
      pending = null;
    }
  }
}
