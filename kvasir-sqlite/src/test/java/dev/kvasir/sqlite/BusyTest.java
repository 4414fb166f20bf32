package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another connection (as another process would) holds SQLite's write lock: opening and commits
 * wait with backoff up to the busy timeout, then fail clearly and change nothing.
 */
class BusyTest {
  @TempDir Path dir;

  private Kv open(Duration busyTimeout) {
    return Kv.of(SqliteEngine.open(
        SqliteConfig.of(dir.resolve("busy.sqlite3").toString()).busyTimeout(busyTimeout)));
  }

  private Connection lockHolder() throws Exception {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("busy.sqlite3"));
    try (Statement s = c.createStatement()) {
      s.execute("pragma busy_timeout = 5000"); // the engine's sweep at open may hold it briefly
      s.execute("begin immediate");
    }
    return c;
  }

  private static void releaseLater(Connection holder, AtomicBoolean released) {
    CompletableFuture.runAsync(() -> {
      try (holder) {
        released.set(true);
        holder.createStatement().execute("rollback");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
  }

  private static int tables(Connection c) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from sqlite_master")) {
      return r.getInt(1);
    }
  }

  @Test
  void open_whileAnotherProcessCreatesTheFile_waitsForIt() throws Exception {
    Connection holder = lockHolder(); // a fresh file, as when two processes open it at once
    AtomicBoolean released = new AtomicBoolean();
    releaseLater(holder, released);
    try (Kv kv = open(Duration.ofSeconds(10))) {
      assertThat(released).isTrue();
      assertThat(kv.set(KvKey.of("k"), 1).ok()).isTrue();
    }
  }

  @Test
  void open_pastTheBusyTimeout_failsClearly_andLeavesTheFileUnchanged() throws Exception {
    try (Connection holder = lockHolder()) {
      assertThatThrownBy(() -> open(Duration.ofMillis(300)))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("cannot open")
          .hasMessageContaining("locked by another process; gave up after 300 ms");
      holder.createStatement().execute("rollback");
      assertThat(tables(holder)).isZero();
    }
    try (Kv kv = open(Duration.ofSeconds(10))) {
      assertThat(kv.set(KvKey.of("k"), 1).ok()).isTrue();
    }
  }

  @Test
  void commit_whileAnotherConnectionHoldsTheLock_waitsForIt() throws Exception {
    try (Kv kv = open(Duration.ofSeconds(10))) {
      Connection holder = lockHolder();
      AtomicBoolean released = new AtomicBoolean();
      releaseLater(holder, released);
      // SQLite's own busy handler gives up after 100 ms; the engine's backoff keeps trying.
      assertThat(kv.set(KvKey.of("k"), 1).ok()).isTrue();
      assertThat(released).isTrue();
      assertThat(kv.get(KvKey.of("k")).value()).isEqualTo(1.0);
    }
  }

  @Test
  void commit_pastTheBusyTimeout_failsClearly_andChangesNothing() throws Exception {
    try (Kv kv = open(Duration.ofMillis(300)); Connection holder = lockHolder()) {
      assertThatThrownBy(() -> kv.set(KvKey.of("k"), 1))
          .isInstanceOf(KvUnavailableException.class)
          .hasMessageContaining("locked by another process; gave up after 300 ms");
      holder.createStatement().execute("rollback");
      assertThat(kv.get(KvKey.of("k")).exists()).isFalse();
      assertThat(kv.set(KvKey.of("k"), 2).ok()).isTrue(); // the writer recovers
    }
  }
}
