package dev.kvasir.sqlite;

import dev.kvasir.base.KvUnavailableException;
import java.sql.SQLException;

/**
 * SQLite errors that say the storage under the file failed rather than the statement: a full
 * disk ({@code SQLITE_FULL}), an I/O error ({@code SQLITE_IOERR} and its extended codes), a
 * file that can no longer be opened ({@code SQLITE_CANTOPEN}) or written ({@code
 * SQLITE_READONLY}: a file system remounted read-only), memory exhausted ({@code
 * SQLITE_NOMEM}). They are transient from the caller's side: the same commit succeeds once the
 * operator frees space or the device recovers, so they surface as {@link
 * KvUnavailableException} (HTTP 503 from the server) and never as a bug.
 */
final class StorageFault {
  private static final int SQLITE_NOMEM = 7;
  private static final int SQLITE_READONLY = 8;
  private static final int SQLITE_IOERR = 10;
  private static final int SQLITE_FULL = 13;
  private static final int SQLITE_CANTOPEN = 14;

  private StorageFault() {}

  static boolean is(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    return primary == SQLITE_FULL || primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN
        || primary == SQLITE_NOMEM || primary == SQLITE_READONLY;
  }

  /**
   * Whether {@code e}, raised by a COMMIT, may come after the transaction's last frame reached
   * the write-ahead log: an I/O error, and so a failed sync of the log. SQLite then drops the
   * transaction from its view, but the frames stay in the log, and an open after a crash
   * (before the next commit overwrites them) replays them (docs/sqlite.md §10). A full disk or
   * a read-only file refuses a write, and the frame that marks the commit is written last.
   */
  static boolean mayLeaveCommitInLog(SQLException e) {
    return (e.getErrorCode() & 0xff) == SQLITE_IOERR;
  }

  /** The caller's error for {@code e}; {@code maybeApplied}: whether the work may have stuck. */
  static KvUnavailableException unavailable(String path, SQLException e, boolean maybeApplied) {
    String what = switch (e.getErrorCode() & 0xff) {
      case SQLITE_FULL -> "the disk holding " + path + " is full";
      case SQLITE_READONLY -> path + " can no longer be written (" + e.getMessage() + ")";
      default -> "the storage of " + path + " failed (" + e.getMessage() + ")";
    };
    return new KvUnavailableException(what + "; the commit was "
        + (maybeApplied ? "perhaps" : "not") + " applied. Retry once the cause is gone.",
        maybeApplied, e);
  }
}
