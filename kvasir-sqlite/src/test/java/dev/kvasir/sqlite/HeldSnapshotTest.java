package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reader connections keep their read transaction between reads while nothing is committed
 * (docs/sqlite.md §9): every commit is still seen by the next read, whoever made it, and a
 * connection left idle lets go of its snapshot.
 */
class HeldSnapshotTest {
  /** More reads than the engine has reader connections, so that each holds a snapshot. */
  private static final int READS = 40;

  @TempDir Path dir;

  private static void readMany(Kv kv, KvKey key) {
    for (int i = 0; i < READS; i++) {
      kv.get(key);
    }
  }

  /** Each commit through {@code writer} is what the reads through {@code reader} see next. */
  private static void readsSeeEachCommit(Kv writer, Kv reader) {
    KvKey key = KvKey.of("a");
    for (double i = 0; i < 5; i++) {
      writer.set(key, i);
      assertThat(reader.get(key).value()).isEqualTo(i);
      readMany(reader, key); // the reader connections hold the snapshot of this commit
    }
  }

  @Test
  void ownCommit_isSeenByTheNextRead() {
    try (Kv kv = Kv.open(dir.resolve("own.sqlite3").toString())) {
      readsSeeEachCommit(kv, kv);
    }
  }

  @Test
  void commitOfAnotherEngineOnTheFile_isSeenByTheNextRead() {
    String file = dir.resolve("two.sqlite3").toString();
    try (Kv reader = Kv.open(file); Kv writer = Kv.open(file)) {
      readsSeeEachCommit(writer, reader);
    }
  }

  @Test
  void readsKeptBusy_neverSeeLessThanTheLastCompletedCommit() throws Exception {
    KvKey key = KvKey.of("n");
    try (Kv kv = Kv.open(dir.resolve("busy.sqlite3").toString())) {
      kv.set(key, 0.0);
      AtomicLong completed = new AtomicLong();
      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicReference<String> stale = new AtomicReference<>();
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        // Busy connections are never idle, so only the header tells them of each commit.
        Thread reader = new Thread(() -> {
          while (writing.get() && stale.get() == null) {
            long floor = completed.get(); // before the read starts
            double seen = (Double) kv.get(key).value();
            if (seen < floor) {
              stale.set("read " + seen + " after commit " + floor + " had completed");
            }
          }
        });
        reader.start();
        readers.add(reader);
      }
      try {
        for (long i = 1; i <= 300 && stale.get() == null; i++) {
          kv.set(key, (double) i);
          completed.set(i);
        }
      } finally {
        writing.set(false);
        for (Thread reader : readers) {
          reader.join();
        }
      }
      assertThat(stale.get()).isNull();
    }
  }

  @Test
  void commitOfAPlainSqliteConnection_isSeenByTheNextRead() throws Exception {
    Path file = dir.resolve("plain.sqlite3");
    KvKey key = KvKey.of("x");
    try (Kv kv = Kv.open(file.toString());
        Connection plain = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      kv.set(key, "here");
      readMany(kv, key);
      assertThat(kv.get(key).exists()).isTrue();
      try (PreparedStatement delete = plain.prepareStatement("delete from kv where k = ?")) {
        delete.setBytes(1, key.encode());
        assertThat(delete.executeUpdate()).isEqualTo(1);
      }
      KvEntry after = kv.get(key);
      assertThat(after.exists()).as("the row another connection deleted").isFalse();
    }
  }

  @Test
  void idleReaders_letGoOfTheirSnapshot_soThatACheckpointCanRestartTheLog() throws Exception {
    Path file = dir.resolve("idle.sqlite3");
    KvKey key = KvKey.of("a");
    try (Kv kv = Kv.open(file.toString());
        Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      try (Statement s = other.createStatement()) {
        s.execute("pragma busy_timeout = 0"); // report a reader in the way, never wait for it
      }
      boolean held = false;
      for (int attempt = 0; attempt < 20 && !held; attempt++) {
        // Frames in the log that no checkpoint copied yet, each attempt: an attempt whose reads
        // were let go before the checkpoint (a machine busy for longer than HOLD_IDLE_MS) has
        // the checkpoint empty the log, and on an empty log the next one is never blocked.
        kv.set(key, 1.0);
        readMany(kv, key);
        held = truncatingCheckpointIsBlocked(other);
      }
      assertThat(held).as("a reader keeps the snapshot of its last read").isTrue();

      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (truncatingCheckpointIsBlocked(other)) {
        assertThat(System.nanoTime()).as("idle readers let go of their snapshots")
            .isLessThan(deadline);
        Thread.sleep(Readers.HOLD_IDLE_MS / 2);
      }
      assertThat(kv.get(key).value()).isEqualTo(1.0);
    }
  }

  /** Runs a checkpoint that must also start the log over: blocked by any reader in it. */
  private static boolean truncatingCheckpointIsBlocked(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("pragma wal_checkpoint(truncate)")) {
      r.next();
      return r.getInt(1) != 0;
    }
  }
}
