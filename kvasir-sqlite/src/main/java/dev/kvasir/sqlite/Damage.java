package dev.kvasir.sqlite;

import dev.kvasir.base.KvException;
import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Damage SQLite found in the file's pages ({@code SQLITE_CORRUPT}, {@code SQLITE_NOTADB}) while
 * open (docs/sqlite.md §11). No retry mends it, so it is remembered until the file is opened
 * again: the engine reports it as its storage problem, and a server stops calling itself ready.
 */
final class Damage {
  private static final Logger LOG = LoggerFactory.getLogger(Damage.class);
  private static final int SQLITE_CORRUPT = 11;
  private static final int SQLITE_NOTADB = 26;

  private final String path;
  private volatile String found;

  Damage(String path) {
    this.path = path;
  }

  /** What was found, if anything. */
  Optional<String> found() {
    return Optional.ofNullable(found);
  }

  /** The error for {@code e} if it says the file is damaged, remembered; else empty. */
  Optional<KvException> of(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    if (primary != SQLITE_CORRUPT && primary != SQLITE_NOTADB) {
      return Optional.empty();
    }
    String why = path + " is damaged (" + e.getMessage() + "); restore it from a backup";
    synchronized (this) {
      if (found == null) {
        found = why;
        LOG.error("{}. Reads and writes that meet the damage fail, and the database reports"
            + " itself damaged until it is opened again", why);
      }
    }
    return Optional.of(new KvException(why, e));
  }
}
