package dev.kvasir.jdbc;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.StoredValue;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.EncodedValue;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Rows of denokv's {@code kv} table as the JDBC engines read them (docs/sqlite.md §5): the
 * columns {@code k, v, v_encoding, version} in that order, from a range statement whose
 * parameters are {@code start, end, now, limit}, or a statement for one live key whose
 * parameters are {@code k, now}. The SQLite engine reads its rows without a result set
 * (docs/sqlite.md §8).
 */
public final class JdbcRows {
  private JdbcRows() {}

  /** Binds {@code range} to {@code statement}, runs it and reads its rows. */
  public static List<RawEntry> range(PreparedStatement statement, ReadRange range, long now)
      throws SQLException {
    statement.setBytes(1, range.start().sharedBytes());
    statement.setBytes(2, range.end().sharedBytes());
    statement.setLong(3, now);
    statement.setInt(4, range.limit());
    List<RawEntry> entries = new ArrayList<>(Math.min(range.limit(), 128));
    try (ResultSet r = statement.executeQuery()) {
      while (r.next()) {
        entries.add(entry(r, 1));
      }
    }
    return entries;
  }

  /** The entry in the current row, whose {@code k} column is number {@code first}. */
  public static RawEntry entry(ResultSet r, int first) throws SQLException {
    // Drivers never change the arrays they return, so these are handed over, not copied.
    return new RawEntry(RawKey.wrap(r.getBytes(first)),
        EncodedValue.stored(r.getInt(first + 2), r.getBytes(first + 1)),
        Versionstamp.ofVersion(r.getLong(first + 3)));
  }

  /**
   * Binds {@code now} to {@code statement}, a dump of the live entries (columns as {@link
   * #stored} reads them), and hands each row to {@code sink} as it is read.
   */
  public static void dump(PreparedStatement statement, long now, Consumer<StoredEntry> sink)
      throws SQLException {
    statement.setLong(1, now);
    try (ResultSet r = statement.executeQuery()) {
      while (r.next()) {
        sink.accept(stored(r));
      }
    }
  }

  /**
   * The entry in the current row of a dump, columns {@code k, v, v_encoding, version,
   * expiration_ms} (docs/dag-keyspace.md §4).
   */
  private static StoredEntry stored(ResultSet r) throws SQLException {
    return new StoredEntry(RawKey.wrap(r.getBytes(1)),
        EncodedValue.stored(r.getInt(3), r.getBytes(2)), Versionstamp.ofVersion(r.getLong(4)),
        r.getLong(5));
  }

  /** Binds {@code key} and {@code now} to {@code statement} and reads the live entry, or null. */
  public static StoredValue live(PreparedStatement statement, RawKey key, long now)
      throws SQLException {
    statement.setBytes(1, key.sharedBytes());
    statement.setLong(2, now);
    try (ResultSet r = statement.executeQuery()) {
      return r.next()
          ? new StoredValue(EncodedValue.stored(r.getInt(3), r.getBytes(2)), r.getLong(4))
          : null;
    }
  }
}
