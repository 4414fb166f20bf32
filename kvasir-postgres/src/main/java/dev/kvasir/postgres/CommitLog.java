package dev.kvasir.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.UUID;

/**
 * Settles commits whose connection broke mid-way. Every writer transaction inserts a {@code
 * commit_log} row with a fresh id. Afterwards, on a new connection, the old server process is
 * terminated if it still runs (so the transaction cannot commit later), and then the row tells
 * whether it committed. Rows are pruned after a few minutes by the expiry sweep.
 */
final class CommitLog {
  private CommitLog() {}

  /** What became of a commit: unknown if the server stayed unreachable. */
  record Outcome(boolean known, boolean applied, long version) {
    static final Outcome UNKNOWN = new Outcome(false, false, 0);
    static final Outcome NOT_APPLIED = new Outcome(true, false, 0);
  }

  /**
   * Finds out what became of the commit, trying until {@code deadlineNanos}. An interrupt waits
   * until it is known, as for a commit under way (docs/atomic.md §9): it is set aside meanwhile,
   * since the pool hands out no connection to an interrupted thread, and set again after.
   */
  static Outcome find(Database db, Sql sql, UUID commitId, Tx.Backend backend,
      long deadlineNanos) {
    boolean interrupted = Thread.interrupted();
    try {
      for (int tries = 0; ; tries++) {
        try (Connection c = db.connection()) {
          boolean ended = backend == null || terminate(c, backend);
          try (PreparedStatement p = c.prepareStatement(sql.findCommit)) {
            p.setObject(1, commitId, Types.OTHER);
            try (ResultSet r = p.executeQuery()) {
              if (r.next()) {
                return new Outcome(true, true, r.getLong(1));
              }
            }
          }
          return ended ? Outcome.NOT_APPLIED : Outcome.UNKNOWN;
        } catch (SQLException e) {
          if (Database.classify(e) == Database.Failure.OTHER
              || System.nanoTime() >= deadlineNanos) {
            return Outcome.UNKNOWN;
          }
          if (!Database.pause(tries)) {
            interrupted = Thread.interrupted(); // set aside again; the next try comes at once
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Ends the server process that ran the transaction, if it is still there (matched by pid and
   * start time, since a restarted server reuses pids), and waits for it to go.
   *
   * @return whether it is gone
   */
  static boolean terminate(Connection c, Tx.Backend backend) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("select pg_terminate_backend(pid, 5000)"
        + " from pg_stat_activity where pid = ? and backend_start = ?")) {
      p.setInt(1, backend.pid());
      p.setTimestamp(2, backend.start());
      try (ResultSet r = p.executeQuery()) {
        return !r.next() || r.getBoolean(1);
      }
    }
  }
}
