package dev.kvasir.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Kvasir's table of recent idempotency keys beside denokv's (docs/kv-connect.md §9): columns
 * {@code id, version, at_ms}. Each engine names the table in its own statements.
 */
public final class CommitIds {
  private CommitIds() {}

  /** Runs {@code select version … where id = ?}: the recorded version, or −1. */
  public static long find(PreparedStatement p, String id) throws SQLException {
    p.setString(1, id);
    try (ResultSet r = p.executeQuery()) {
      return r.next() ? r.getLong(1) : -1;
    }
  }

  /** Runs {@code insert … (id, version, at_ms) values (?, ?, ?)}. */
  public static void record(PreparedStatement p, String id, long version, long atMs)
      throws SQLException {
    p.setString(1, id);
    p.setLong(2, version);
    p.setLong(3, atMs);
    p.executeUpdate();
  }
}
