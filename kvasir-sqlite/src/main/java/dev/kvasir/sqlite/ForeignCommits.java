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
  /** Guards the poll's connection, which {@link #suspend} closes from another thread. */
  private final Object pollLock = new Object();
  private Connection connection; // guarded by pollLock, as the next four
  private PreparedStatement fileVersion;
  private PreparedStatement commitVersion;
  private long dataVersion = Long.MIN_VALUE;
  private boolean suspended;

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
    try {
      while (awaitInterest()) {
        long version = poll();
        if (version >= 0) {
          observed(version); // outside pollLock: it runs listeners
        }
        Thread.sleep(POLL_MS);
      }
    } catch (InterruptedException e) {
      // closing
    } finally {
      synchronized (pollLock) {
        closeConnection();
      }
    }
  }

  /**
   * One look at the file on the poll's connection, opened if needed: the commit version if the
   * file changed since the last look, else -1.
   */
  private long poll() {
    synchronized (pollLock) {
      if (suspended) {
        return -1;
      }
      try {
        if (connection == null) {
          connection = open();
          fileVersion = connection.prepareStatement("pragma data_version");
          commitVersion =
              connection.prepareStatement("select version from data_version where k = 0");
        }
        long now = query(fileVersion);
        if (now == dataVersion) {
          return -1;
        }
        dataVersion = now;
        return query(commitVersion);
      } catch (SQLException e) {
        // The file is busy or being replaced; the next poll looks again on a fresh connection.
        closeConnection();
        return -1;
      }
    }
  }

  /**
   * Closes the poll's connection and opens none until {@link #resume}: the last engine of this
   * JVM on the file is closing its connections, and the file's last connection to close must
   * be a writer's, which checkpoints the write-ahead log into the file and deletes it. While the
   * poll's read-only connection stayed open, an application that had watched a key or waited
   * for a queue message left every commit since the last checkpoint in {@code -wal}, and a copy
   * of the database file alone lacked them (docs/sqlite.md §7).
   */
  void suspend() {
    synchronized (pollLock) {
      suspended = true;
      closeConnection();
    }
  }

  /** Polls again: an engine opened the file. */
  void resume() {
    synchronized (pollLock) {
      suspended = false;
    }
  }

  private void closeConnection() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
    connection = null;
    fileVersion = null;
    commitVersion = null;
    dataVersion = Long.MIN_VALUE;
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
