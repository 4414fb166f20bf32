package dev.kvasir.postgres;

import dev.kvasir.jdbc.JdbcRows;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Snapshot reads. Each read is a single statement, and one statement sees one snapshot, so
 * several ranges are read together: exact keys (a {@code getMany}) by {@code k = any(...)},
 * other combinations by a {@code union all} of one subquery per range.
 */
final class Reads {
  private Reads() {}

  static List<List<RawEntry>> read(Connection c, Sql sql, List<ReadRange> ranges, long now)
      throws SQLException {
    if (ranges.size() == 1) {
      ReadRange range = ranges.get(0);
      try (PreparedStatement p = c.prepareStatement(
          range.reverse() ? sql.rangeReverse : sql.rangeForward)) {
        return List.of(JdbcRows.range(p, range, now));
      }
    }
    return allExactKeys(ranges) ? exactKeys(c, sql, ranges, now) : union(c, sql, ranges, now);
  }

  /** The version of the last commit ({@code data_version}), as any role that may read sees it. */
  static long commitVersion(Connection c, Sql sql) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql.commitVersion);
        ResultSet r = p.executeQuery()) {
      return r.next() ? r.getLong(1) : 0;
    }
  }

  /** The earliest expiry stored, by the server's clock; {@code Long.MAX_VALUE} for none. */
  static long earliestExpiry(Connection c, Sql sql) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql.earliestExpiry);
        ResultSet r = p.executeQuery()) {
      r.next();
      long at = r.getLong(1);
      return r.wasNull() ? Long.MAX_VALUE : at;
    }
  }

  private static boolean allExactKeys(List<ReadRange> ranges) {
    return ranges.stream().allMatch(ReadRange::isOneKey);
  }

  private static List<List<RawEntry>> exactKeys(Connection c, Sql sql, List<ReadRange> ranges,
      long now) throws SQLException {
    byte[][] keys = new byte[ranges.size()][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ranges.get(i).start().sharedBytes();
    }
    Map<RawKey, RawEntry> found = new HashMap<>();
    try (PreparedStatement p = c.prepareStatement(sql.getAny)) {
      p.setObject(1, keys); // binary (Pipeline.set)
      p.setLong(2, now);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          RawEntry e = JdbcRows.entry(r, 1);
          found.put(e.key(), e);
        }
      }
    }
    List<List<RawEntry>> out = new ArrayList<>(ranges.size());
    for (ReadRange range : ranges) {
      RawEntry e = found.get(range.start());
      out.add(e == null ? List.of() : List.of(e));
    }
    return out;
  }

  private static List<List<RawEntry>> union(Connection c, Sql sql, List<ReadRange> ranges,
      long now) throws SQLException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < ranges.size(); i++) {
      text.append(i == 0 ? "" : " union all ").append("(select ").append(i).append(", * from (")
          .append(ranges.get(i).reverse() ? sql.rangeReverse : sql.rangeForward).append(") r)");
    }
    List<List<RawEntry>> out = new ArrayList<>(ranges.size());
    for (int i = 0; i < ranges.size(); i++) {
      out.add(new ArrayList<>());
    }
    try (PreparedStatement p = c.prepareStatement(text.toString())) {
      int n = 1;
      for (ReadRange range : ranges) {
        p.setBytes(n++, range.start().sharedBytes());
        p.setBytes(n++, range.end().sharedBytes());
        p.setLong(n++, now);
        p.setInt(n++, range.limit());
      }
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          out.get(r.getInt(1)).add(JdbcRows.entry(r, 2));
        }
      }
    }
    // A union keeps each subquery's order in practice, but SQL does not promise it.
    for (int i = 0; i < ranges.size(); i++) {
      boolean reverse = ranges.get(i).reverse();
      out.get(i).sort((a, b) -> reverse ? b.key().compareTo(a.key()) : a.key().compareTo(b.key()));
    }
    return out;
  }
}
