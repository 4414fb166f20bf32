package dev.kvasir.postgres;

import dev.kvasir.base.MeterSink;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears the commits of other instances: a daemon thread holds one connection that {@code
 * LISTEN}s on the schema's channel and hands each notification to {@code onNotification}. If the
 * connection drops, notifications sent meanwhile are lost, so after every (re)connection {@code
 * onResync} runs: watchers read their keys again and queue listeners look again (the fallback
 * poll). Started on first interest, so an instance that never watches holds no extra connection.
 *
 * <p>Commits notify only while some instance has promised to listen (docs/postgres.md §4). The
 * feed promises right after {@code LISTEN} and renews the promise well before it runs out; a
 * renewal that finds the last promise already lapsed runs {@code onResync}, since commits in
 * the gap sent nothing.
 *
 * <p>An engine opened for reading only may not promise, and may run on a server that takes no
 * {@code LISTEN} (a standby): its feed looks at the commit version every half second instead,
 * and runs {@code onResync} when it moved (docs/postgres.md §4). So does the feed of an engine
 * whose role turns out not to have the privilege to promise.
 */
final class ChangeFeed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);
  private static final int WAIT_MS = 500;
  /** How long one promise to listen lasts, and how often it is renewed. */
  static final long PROMISE_SECONDS = 60;
  static final long RENEW_NANOS = TimeUnit.SECONDS.toNanos(PROMISE_SECONDS / 3);

  private final Database db;
  private final Sql sql;
  /**
   * Neither listens nor promises (a write), but looks at the commit version every round: opened
   * for reading only, or found unable to promise. Feed thread only, after the constructor.
   */
  private boolean readOnly;
  private final Consumer<Notification> onNotification;
  private final Runnable onResync;
  private volatile LongConsumer reconnects = n -> { };
  private Thread thread; // guarded by this
  private volatile boolean closed;

  ChangeFeed(Database db, Sql sql, boolean readOnly, Consumer<Notification> onNotification,
      Runnable onResync) {
    this.db = db;
    this.sql = sql;
    this.readOnly = readOnly;
    this.onNotification = onNotification;
    this.onResync = onResync;
  }

  /** Starts listening, if not yet started. */
  synchronized void start() {
    if (thread == null && !closed) {
      thread = new Thread(this::run, "kvasir-postgres-listen " + sql.schema);
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** Counts the times the listening connection was lost ({@code kvasir.postgres.reconnects}). */
  void bindMeters(MeterSink sink) {
    reconnects = reconnects.andThen(sink.counter("kvasir.postgres.reconnects",
        "Times the connection that hears other instances' commits was lost"));
  }

  private void run() {
    for (int tries = 0; !closed; ) {
      try (Connection c = db.connection()) {
        if (!readOnly) {
          try (Statement s = c.createStatement()) {
            s.execute("listen " + sql.channel);
          }
        }
        if (tries > 0) {
          LOG.info("Hearing other instances' commits on {} again", db.where());
        }
        tries = 0;
        long seen = readOnly ? Reads.commitVersion(c, sql) : 0;
        if (!readOnly) {
          promiseToListen(c); // from here on, every commit notifies
        }
        onResync.run(); // whatever happened before LISTEN took effect is looked at now
        long renewAt = System.nanoTime() + RENEW_NANOS;
        PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          PGNotification[] received = pg.getNotifications(WAIT_MS);
          if (readOnly) {
            long version = Reads.commitVersion(c, sql);
            if (version != seen) {
              seen = version;
              onResync.run();
            }
          } else if (System.nanoTime() - renewAt >= 0) {
            renewAt = System.nanoTime() + RENEW_NANOS;
            if (!promiseToListen(c)) { // this thread stalled, or the server's clock jumped
              LOG.warn("The promise to hear commits on {} had lapsed before its renewal;"
                  + " watchers read their keys again", db.where());
              onResync.run();
            }
          }
          if (received == null) {
            continue;
          }
          for (PGNotification n : received) {
            Notification parsed = Notification.parse(n.getParameter());
            if (parsed != null) {
              onNotification.accept(parsed);
            }
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (!closed && !readOnly && Database.privilegeRefused(e)) {
          // A role that may not write the promise: follow the version, as a read-only engine
          // does, rather than reconnect and fail again forever.
          readOnly = true;
          LOG.warn("The role may not promise to listen on {} ({}); watchers follow the commit"
              + " version every half second instead. Open it with postgres.readOnly=true",
              db.where(), e.getMessage());
          continue;
        }
        if (!closed) {
          if (tries == 0) {
            reconnects.accept(1);
            LOG.warn("Lost the connection that hears other instances' commits on {} ({});"
                + " watchers read their keys again, and it reconnects", db.where(),
                e.getMessage());
          }
          onResync.run(); // something may have changed unannounced; look now and after reconnect
          sleep(tries++);
        }
      }
    }
  }

  /**
   * Promises on the listening connection {@code c}, for {@link #PROMISE_SECONDS}, that this
   * instance listens. Answers whether the promise before (any instance's) still held, so that no
   * commit since it was made went unannounced.
   */
  private boolean promiseToListen(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql.promiseToListen)) {
      p.setLong(1, PROMISE_SECONDS);
      try (ResultSet r = p.executeQuery()) {
        return r.next() && r.getBoolean(1);
      }
    }
  }

  private static void sleep(int tries) {
    try {
      Thread.sleep(Math.min(2_000, 100L << Math.min(tries, 5)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops listening and returns the connection. */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      closed = true;
      t = thread;
    }
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
