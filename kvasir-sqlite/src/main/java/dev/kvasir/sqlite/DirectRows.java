package dev.kvasir.sqlite;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.engine.StoredValue;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.value.EncodedValue;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.core.Codes;
import org.sqlite.core.CoreStatement;
import org.sqlite.core.DB;
import org.sqlite.core.SafeStmtPtr;

/**
 * Reads rows of the {@code kv} table through sqlite-jdbc's core API instead of a JDBC result
 * set (docs/sqlite.md §8): the same bind, step, column and reset calls into SQLite, without the
 * result set the driver builds around every query (it asks SQLite for every column's name on
 * each run). Reads are the engine's hottest path, and that result set was about a fifth of the
 * time of a point read.
 */
final class DirectRows {
  private DirectRows() {}

  /**
   * The live entry of {@code key}, a list of none or one, by {@link Sql#GET_VALUE}, whose
   * parameters are {@code k, now} and whose columns are {@code v, v_encoding, version}.
   */
  static List<RawEntry> one(PreparedStatement statement, RawKey key, long now)
      throws SQLException {
    StoredValue value = value(statement, key, now);
    return value == null ? List.of()
        : List.of(new RawEntry(key, value.value(), Versionstamp.ofVersion(value.version())));
  }

  /** As {@link #one}, as the rulebook reads a key inside a write: the value and its version. */
  static StoredValue value(PreparedStatement statement, RawKey key, long now)
      throws SQLException {
    CoreStatement s = core(statement);
    try {
      if (!s.getDatabase().execute(s, new Object[] {key.sharedBytes(), now})) {
        return null;
      }
      return s.pointer.safeRun((db, p) -> new StoredValue(
          EncodedValue.stored(db.column_int(p, 1), db.column_blob(p, 0)), db.column_long(p, 2)));
    } finally {
      reset(s.pointer);
    }
  }

  /**
   * The live entries of {@code range} by a range statement ({@link Sql#RANGE_ASC}, {@link
   * Sql#RANGE_DESC}): parameters {@code start, end, now, limit}; columns {@code k, v,
   * v_encoding, version}.
   */
  static List<RawEntry> range(PreparedStatement statement, ReadRange range, long now)
      throws SQLException {
    CoreStatement s = core(statement);
    // Room for a list's usual batch (docs/list.md §2) at once: growing to it copied the array
    // four times.
    List<RawEntry> entries = new ArrayList<>(Math.min(range.limit(), 512));
    // Made once per range, not once per row.
    SafeStmtPtr.SafePtrIntFunction<SQLException> readRowAndStep = (db, p) -> {
      // The driver never changes the arrays it returns, so they are handed over, not copied.
      entries.add(new RawEntry(RawKey.wrap(db.column_blob(p, 0)),
          EncodedValue.stored(db.column_int(p, 2), db.column_blob(p, 1)),
          Versionstamp.ofVersion(db.column_long(p, 3))));
      return db.step(p);
    };
    try {
      DB db = s.getDatabase();
      boolean row = db.execute(s, new Object[] {range.start().sharedBytes(),
          range.end().sharedBytes(), now, range.limit()});
      while (row) {
        int code = s.pointer.safeRunInt(readRowAndStep);
        row = code == Codes.SQLITE_ROW;
        if (!row && code != Codes.SQLITE_DONE) {
          db.throwex(code);
        }
      }
    } finally {
      reset(s.pointer);
    }
    return entries;
  }

  private static CoreStatement core(PreparedStatement statement) {
    return (CoreStatement) statement;
  }

  /**
   * Ends the statement, and with it the read transaction SQLite opened for it. A step that
   * failed has already reported its error, which reset repeats, so its code is not looked at;
   * after some errors the driver has finalized the statement already.
   */
  private static void reset(SafeStmtPtr pointer) throws SQLException {
    if (!pointer.isClosed()) {
      pointer.safeRunInt((db, p) -> db.reset(p));
    }
  }
}
