package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.Blocking;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real streaming standby of a real primary (docs/postgres.md §8, §7): an engine reading only
 * serves the primary's commits from it, watches included, and refuses writes; an engine opened
 * for writing on it waits out the failover and writes on the promoted standby.
 */
class PostgresStandbyIT {
  private static final KvOptions READ_ONLY = PostgresOptions.defaults().readOnly(true).build();

  @TempDir Path dir;
  private EmbeddedPostgres primary;
  private EmbeddedPostgres standby;

  @BeforeEach
  void startPrimaryAndStandby() throws Exception {
    primary = TestPostgres.start(dir.resolve("primary"), 0);
    try (Kv kv = Kv.open(url(primary))) {
      kv.set(KvKey.of("greeting"), "hello"); // the schema exists before the copy
    }
    Path copy = dir.resolve("standby");
    baseBackup(primary, dir.resolve("primary"), copy);
    standby = TestPostgres.start(copy, 0);
    try (Connection c = connect(standby); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select pg_is_in_recovery()")) {
      r.next();
      assertThat(r.getBoolean(1)).as("the copy runs as a standby").isTrue();
    }
  }

  @AfterEach
  void stop() throws IOException {
    if (standby != null) {
      standby.close();
    }
    if (primary != null) {
      primary.close();
    }
  }

  @Test
  void anEngineReadingOnly_onTheStandby_followsThePrimary_andRefusesWrites() throws Exception {
    try (Kv writer = Kv.open(url(primary)); Kv reader = Kv.open(url(standby), READ_ONLY)) {
      assertThat(awaitValue(reader, KvKey.of("greeting"), "hello")).isTrue();
      for (int i = 0; i < 20; i++) {
        writer.set(KvKey.of("items", i), "item " + i);
      }
      assertThat(awaitValue(reader, KvKey.of("items", 19), "item 19")).isTrue();
      assertThat(reader.list(ListSelector.prefix(KvKey.of("items"))).stream().count())
          .isEqualTo(20);

      try (WatchStream watch = reader.watch(List.of(KvKey.of("greeting")))) {
        assertThat(watch.next().get(0).value()).isEqualTo("hello");
        CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
        writer.set(KvKey.of("greeting"), "hello again");
        // No NOTIFY reaches a standby: the watch follows the replayed commit version.
        assertThat(next.get(15, TimeUnit.SECONDS).get(0).value()).isEqualTo("hello again");
      }
      assertThatThrownBy(() -> reader.set(KvKey.of("greeting"), "changed"))
          .isInstanceOf(KvException.class).hasMessageContaining("open for reading only");
    }
  }

  @Test
  void anEngineOpenedForWriting_onTheStandby_writesOnceItIsPromoted() throws Exception {
    try (Kv kv = Kv.open(url(standby) + "&retryTimeoutMs=60000")) {
      assertThat(awaitValue(kv, KvKey.of("greeting"), "hello")).isTrue();
      // PostgreSQL refuses the commit (25006): retried, on a new session each time, until the
      // address takes writes.
      CompletableFuture<?> commit = Blocking.run(
          () -> kv.set(KvKey.of("greeting"), "after the failover"));
      Thread.sleep(1_500);
      assertThat(commit).as("a commit to a standby waits").isNotDone();
      try (Connection c = connect(standby); Statement s = c.createStatement()) {
        s.execute("select pg_promote(true, 60)");
      }
      commit.get(60, TimeUnit.SECONDS);
      assertThat(kv.get(KvKey.of("greeting")).value()).isEqualTo("after the failover");
      kv.sum(KvKey.of("count"), 1);
      assertThat(kv.get(KvKey.of("count")).exists()).isTrue();
    }
  }

  /** Waits up to 15 s for replay to bring the standby's value at {@code key} to {@code want}. */
  private static boolean awaitValue(Kv kv, KvKey key, Object want) throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (want.equals(kv.get(key).value())) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /**
   * What {@code pg_basebackup -R} does, through SQL and a file copy (the embedded binaries
   * have no pg_basebackup): a backup bracketed by {@code pg_backup_start} and {@code
   * pg_backup_stop} in one session, its label written into the copy, and the copy told to
   * stream from the primary through a slot that keeps the WAL it still needs.
   */
  private static void baseBackup(EmbeddedPostgres primary, Path data, Path copy)
      throws SQLException, IOException {
    try (Connection c = connect(primary); Statement s = c.createStatement()) {
      s.execute("select pg_create_physical_replication_slot('standby', true)");
      s.execute("select pg_backup_start('kvasir standby', true)");
      copyData(data, copy);
      try (ResultSet r = s.executeQuery("select labelfile from pg_backup_stop(false)")) {
        r.next();
        Files.writeString(copy.resolve("backup_label"), r.getString(1));
      }
    }
    Files.createFile(copy.resolve("standby.signal"));
    Files.writeString(copy.resolve("postgresql.auto.conf"),
        "primary_conninfo = 'host=localhost port=" + primary.getPort() + " user=postgres'\n"
            + "primary_slot_name = 'standby'\n",
        StandardOpenOption.APPEND);
  }

  /** The data directory without what a base backup leaves out: WAL, the running server's state. */
  private static void copyData(Path data, Path copy) throws IOException {
    Set<String> emptied = Set.of("pg_wal", "pg_replslot", "pg_stat_tmp", "pg_notify",
        "pg_serial", "pg_snapshots", "pg_subtrans", "pg_dynshmem");
    Set<String> skipped = Set.of("postmaster.pid", "postmaster.opts");
    try (Stream<Path> paths = Files.walk(data)) {
      for (Path from : paths.toList()) {
        Path relative = data.relativize(from);
        Path to = copy.resolve(relative.toString());
        boolean inEmptied = relative.getNameCount() > 1
            && emptied.contains(relative.getName(0).toString());
        if (inEmptied || skipped.contains(relative.toString())) {
          continue; // PostgreSQL makes what it needs of them (pg_wal/archive_status) itself
        }
        if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else {
          Files.copy(from, to);
        }
      }
    }
    // PostgreSQL starts only on a data directory that its owner alone may enter.
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
  }

  private static String url(EmbeddedPostgres server) {
    return TestPostgres.url(server.getPort()) + "?schema=standby_test";
  }

  private static Connection connect(EmbeddedPostgres server) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://localhost:" + server.getPort() + "/postgres", "postgres", "");
  }
}
