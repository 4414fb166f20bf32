package dev.kvasir.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * Notices commits that other processes (Deno, another JVM) make to the file; they send no
 * in-process notification (docs/watch.md: Deno never sees them). Two ways:
 *
 * <ul>
 *   <li>each commit of this JVM reports the version it started from; if that is not the last
 *       version this JVM knew, someone else committed in between;
 *   <li>while anyone in this JVM watches keys or waits for queue messages, a daemon thread asks
 *       SQLite every {@link #POLL_MS} ms whether the file changed ({@code pragma data_version},
 *       a look at the WAL index in shared memory, no I/O), then reads the commit version.
 * </ul>
 *
 * Either way {@code onForeignCommit} runs; it cannot know which keys changed, so watchers
 * re-read. With nobody interested the thread sleeps, so an idle database costs nothing.
 */
final class ForeignCommits {
  /** Half of it is the median delay before a watcher hears of another process's commit. */
  static final long POLL_MS = 40;

  private final String path;
  private final Runnable onForeignCommit;
  private final BooleanSupplier interested;
  private final Thread thread;
  private long known = -1; // the newest commit version this JVM knows of; guarded by this
  private boolean closed; // guarded by this

  ForeignCommits(String path, Runnable onForeignCommit, BooleanSupplier interested) {
    this.path = path;
    this.onForeignCommit = onForeignCommit;
    this.interested = interested;
    this.thread = new Thread(this::run, "kvasir-sqlite-changes " + path);
    thread.setDaemon(true);
    thread.start();
  }

  /** A commit of this JVM moved the version from {@code before} to {@code after}. */
  void committed(long before, long after) {
    boolean foreign;
    synchronized (this) {
      foreign = known >= 0 && before != known;
      known = Math.max(known, after);
    }
    if (foreign) {
      onForeignCommit.run();
    }
  }

  /** Someone became interested: start polling now rather than at the next idle check. */
  synchronized void wake() {
    notifyAll();
  }

  private void observed(long version) {
    boolean foreign;
    synchronized (this) {
      foreign = known >= 0 && version > known;
      known = Math.max(known, version);
    }
    if (foreign) {
      onForeignCommit.run();
    }
  }

  private void run() {
    Connection connection = null;
    PreparedStatement fileVersion = null;
    PreparedStatement commitVersion = null;
    long dataVersion = Long.MIN_VALUE;
    try {
      while (awaitInterest()) {
        try {
          if (connection == null) {
            connection = open();
            fileVersion = connection.prepareStatement("pragma data_version");
            commitVersion =
                connection.prepareStatement("select version from data_version where k = 0");
          }
          long now = query(fileVersion);
          if (now != dataVersion) {
            dataVersion = now;
            observed(query(commitVersion));
          }
        } catch (SQLException e) {
          // The file is busy or being replaced; the next poll looks again on a fresh connection.
          closeQuietly(connection);
          connection = null;
          dataVersion = Long.MIN_VALUE;
        }
        Thread.sleep(POLL_MS);
      }
    } catch (InterruptedException e) {
      // closing
    } finally {
      closeQuietly(connection);
    }
  }

  /** Sleeps while nobody is interested; false once closed. */
  private synchronized boolean awaitInterest() throws InterruptedException {
    while (!closed && !interested.getAsBoolean()) {
      wait(1_000);
    }
    return !closed;
  }

  private Connection open() throws SQLException {
    SQLiteConfig c = new SQLiteConfig();
    c.setOpenMode(SQLiteOpenMode.READONLY);
    c.setReadOnly(true);
    c.setBusyTimeout(100);
    return c.createConnection("jdbc:sqlite:" + path);
  }

  private static long query(PreparedStatement p) throws SQLException {
    try (ResultSet r = p.executeQuery()) {
      return r.next() ? r.getLong(1) : 0;
    }
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
  }

  /** Stops polling and waits for the poll's connection to close, unless called from it. */
  void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    thread.interrupt();
    if (Thread.currentThread() != thread) {
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
