package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.testkit.Blocking;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Watches across instances through LISTEN/NOTIFY, what happens when that connection drops, and
 * the promise to listen without which commits send no notification.
 */
class ChangeFeedIT {
  @Test
  void anotherInstancesWrite_wakesTheWatcher_andUnrelatedWritesDoNot() throws Exception {
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("feed");
    try (Kv watcher = Kv.open(url); Kv writer = Kv.open(url);
        WatchStream watch = watcher.watch(List.of(KvKey.of("watched")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
      writer.set(KvKey.of("unrelated"), 1);
      writer.set(KvKey.of("watched"), "from the other instance");
      assertThat(next.get(30, TimeUnit.SECONDS).get(0).value())
          .isEqualTo("from the other instance");
    }
  }

  @Test
  void listeningConnectionKilled_writeMeanwhile_isStillSeen() throws Exception {
    try (Watched w = new Watched()) {
      WatchStream watch = w.watch;
      // Cut the listener and write at once: the notification goes nowhere. The watcher must
      // read again when it reconnects.
      try (Statement s = w.admin.createStatement()) {
        s.execute("select pg_terminate_backend(pid) from pg_stat_activity where "
            + listening(w.schema));
      }
      w.writer.set(KvKey.of("watched"), "written while nobody listened");
      CompletableFuture<KvEntry> seen = Blocking.call(() -> {
        List<KvEntry> state = watch.next();
        while (!state.get(0).exists()) {
          state = watch.next(); // a re-read before the write is allowed; missing it is not
        }
        return state.get(0);
      });
      assertThat(seen.get(30, TimeUnit.SECONDS).value())
          .isEqualTo("written while nobody listened");
    }
  }

  @Test
  void commitsNotify_onlyWhileSomeInstancePromisedToListen() throws Exception {
    String schema = TestPostgres.freshSchema("feed");
    String url = TestPostgres.url() + "?schema=" + schema;
    try (Kv writer = Kv.open(url); Connection admin = TestPostgres.admin();
        Connection ear = TestPostgres.admin()) {
      try (Statement s = ear.createStatement()) {
        s.execute("listen kvasir_" + schema); // hears, but promised nothing
      }
      PGConnection heard = ear.unwrap(PGConnection.class);
      writer.set(KvKey.of("pipelined"), 1);
      writer.atomic().sumNumber(KvKey.of("interactive"), 1.5).commit();
      assertThat(heard.getNotifications(1_000)).as("nobody promised to listen")
          .isNullOrEmpty();

      try (Kv watcher = Kv.open(url);
          WatchStream watch = watcher.watch(List.of(KvKey.of("watched")))) {
        watch.next();
        awaitListening(admin, schema);
        writer.set(KvKey.of("pipelined"), 2);
        writer.atomic().sumNumber(KvKey.of("interactive"), 1.5).commit();
        assertThat(notificationsWithin(heard, 2, 30_000)).hasSize(2);
      }
    }
  }

  @Test
  void aLapsedPromise_isFoundAtTheNextRenewal_andTheWatcherReadsAgain() throws Exception {
    try (Watched w = new Watched()) {
      WatchStream watch = w.watch;
      w.writer.set(KvKey.of("watched"), "heard");
      assertThat(nextValue(watch).get(30, TimeUnit.SECONDS)).isEqualTo("heard");
      // "heard" may have been read on the feed's first look after listening, and its
      // notification then left a change to report: take it first.
      CompletableFuture<Object> seen = nextValue(watch);
      try {
        assertThat(seen.get(1, TimeUnit.SECONDS)).isEqualTo("heard");
        seen = nextValue(watch);
      } catch (TimeoutException nothingLeft) {
        // seen waits for the next change
      }
      try (Statement s = w.admin.createStatement()) {
        // As if the watcher had stalled past its promise: this write notifies nobody.
        s.execute("update " + w.schema + ".data_version set listened_until = '-infinity'");
      }
      w.writer.set(KvKey.of("watched"), "written while no promise held");
      CompletableFuture<Object> next = seen;
      assertThatThrownBy(() -> next.get(3, TimeUnit.SECONDS)).as("no notification went out")
          .isInstanceOf(TimeoutException.class);
      long renewal = TimeUnit.NANOSECONDS.toSeconds(ChangeFeed.RENEW_NANOS);
      assertThat(next.get(renewal + 30, TimeUnit.SECONDS))
          .isEqualTo("written while no promise held");
    }
  }

  /**
   * Another instance's enqueue, and its failed delivery with a retry left, each wake a queue
   * listener waiting here through the notification: its poll is an hour away, so nothing else
   * would hand it the message within the 10 s it is given (docs/queues.md §3).
   */
  @Test
  void anotherInstancesEnqueueAndRetry_wakeAWaitingQueueListener() throws Exception {
    String schema = TestPostgres.freshSchema("feed");
    Duration hour = Duration.ofHours(1);
    try (Kv listening = Kv.of(PostgresEngine.open(PostgresConfig.of(TestPostgres.url())
            .schema(schema).queuePoll(hour)));
        Kv other = Kv.open(TestPostgres.url() + "?schema=" + schema);
        Connection admin = TestPostgres.admin()) {
      CompletableFuture<DequeuedMessage> first = nextMessage(listening, hour);
      awaitListening(admin, schema);
      other.enqueue("enqueued elsewhere");
      DequeuedMessage m = first.get(10, TimeUnit.SECONDS);
      assertThat(m.payload().decode()).isEqualTo("enqueued elsewhere");
      m.finish(true);

      other.enqueue("retried elsewhere", EnqueueOptions.defaults().backoffSchedule(List.of(1)));
      DequeuedMessage failing = other.engine().dequeueNext(hour);
      CompletableFuture<DequeuedMessage> retry = nextMessage(listening, hour);
      Thread.sleep(300); // waiting by now; if not, its first look finds the message anyway
      failing.finish(false);
      DequeuedMessage again = retry.get(10, TimeUnit.SECONDS);
      assertThat(again.payload().decode()).isEqualTo("retried elsewhere");
      again.finish(true);
    }
  }

  /** The next message of {@code kv}, taken on a thread of its own waiting up to {@code wait}. */
  private static CompletableFuture<DequeuedMessage> nextMessage(Kv kv, Duration wait) {
    return Blocking.call(() -> {
      try {
        return kv.engine().dequeueNext(wait);
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted while waiting for a message", e);
      }
    });
  }

  @Test
  void thePromise_answersWhetherTheOneBeforeHeld() throws Exception {
    String schema = TestPostgres.freshSchema("feed");
    try (Kv kv = Kv.open(TestPostgres.url() + "?schema=" + schema);
        Connection admin = TestPostgres.admin();
        PreparedStatement promise = admin.prepareStatement(new Sql(schema).promiseToListen)) {
      promise.setLong(1, ChangeFeed.PROMISE_SECONDS);
      assertThat(answer(promise)).as("nobody had promised").isFalse();
      assertThat(answer(promise)).as("the first promise holds").isTrue();
      try (Statement s = admin.createStatement()) {
        s.execute("update " + schema + ".data_version set listened_until = now()");
      }
      assertThat(answer(promise)).as("the promise had run out").isFalse();
    }
  }

  /**
   * Two instances on a fresh schema: one watching the key "watched", its first state read and
   * its listener listening; one to write.
   */
  private static final class Watched implements AutoCloseable {
    final String schema = TestPostgres.freshSchema("feed");
    final Kv watcher;
    final Kv writer;
    final WatchStream watch;
    final Connection admin;

    Watched() throws Exception {
      String url = TestPostgres.url() + "?schema=" + schema;
      watcher = Kv.open(url);
      writer = Kv.open(url);
      watch = watcher.watch(List.of(KvKey.of("watched")));
      admin = TestPostgres.admin();
      assertThat(watch.next().get(0).exists()).isFalse();
      awaitListening(admin, schema);
    }

    @Override
    public void close() throws Exception {
      watch.close();
      writer.close();
      watcher.close();
      admin.close();
    }
  }

  /** The value of the watched key when the watch next reports a change. */
  private static CompletableFuture<Object> nextValue(WatchStream watch) {
    return Blocking.call(() -> watch.next().get(0).value());
  }

  private static boolean answer(PreparedStatement promise) throws Exception {
    try (ResultSet r = promise.executeQuery()) {
      r.next();
      return r.getBoolean(1);
    }
  }

  private static List<PGNotification> notificationsWithin(PGConnection c, int wanted,
      long millis) throws Exception {
    List<PGNotification> out = new ArrayList<>();
    long end = System.currentTimeMillis() + millis;
    while (out.size() < wanted && System.currentTimeMillis() < end) {
      PGNotification[] got = c.getNotifications(100);
      if (got != null) {
        out.addAll(List.of(got));
      }
    }
    return out;
  }

  /** The listening connection, by its last statement: the promise to listen (ChangeFeed). */
  private static String listening(String schema) {
    return "query like 'with last as%' and query like '%\"" + schema + "\".data_version%'";
  }

  /** Waits until the watcher listens and its promise to listen is committed. */
  private static void awaitListening(Connection admin, String schema) throws Exception {
    TestPostgres.awaitSession(admin, "state = 'idle' and " + listening(schema),
        "the watcher never listened");
  }
}
