package dev.kvasir.sqlite;

import static dev.kvasir.testkit.RecordingMeterSink.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.testkit.RecordingMeterSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the SQLite engine measures: lock waits and its write-ahead log (operations §5). */
class SqliteMetersTest {
  @TempDir Path dir;

  @Test
  void aLockHeldByAnotherConnection_isCountedAsWaits_andTheCommitSucceedsAfterIt()
      throws Exception {
    String file = dir.resolve("locked.sqlite3").toString();
    RecordingMeterSink sink = new RecordingMeterSink();
    try (Kv kv = Kv.open(file, KvOptions.defaults().with("sqlite.busyTimeoutMs", "20000"))) {
      kv.bindMeters(sink);
      try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement s = other.createStatement()) {
        s.execute("begin immediate");
        CompletableFuture<Void> blocked =
            Blocking.run(() -> kv.set(KvKey.of("after", "lock"), 1));
        assertThat(await(() -> sink.count("kvasir.sqlite.lock.waits"), 1)).isPositive();
        assertThat(blocked).isNotDone();
        s.execute("rollback");
        blocked.join();
      }
      assertThat(kv.get(KvKey.of("after", "lock")).value()).isEqualTo(1.0);
    }
  }

  @Test
  void theWriteAheadLog_reportsItsSize_andCheckpointsThatLetItStartOver() throws Exception {
    String file = dir.resolve("wal.sqlite3").toString();
    RecordingMeterSink sink = new RecordingMeterSink();
    try (Kv kv = Kv.open(file)) {
      kv.bindMeters(sink);
      assertThat(sink.read("kvasir.sqlite.wal.checkpoints")).isZero();
      for (int i = 0; i < 200; i++) { // 12.5 MB: SQLite checkpoints every 1000 pages (4 MB)
        kv.set(KvKey.of("big", i), new byte[64 * 1024]);
      }
      assertThat(sink.read("kvasir.sqlite.wal.size.bytes")).isPositive();
      assertThat(sink.read("kvasir.sqlite.wal.checkpoints")).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void anInMemoryDatabase_hasNoLogToMeasure() {
    RecordingMeterSink sink = new RecordingMeterSink();
    try (Kv kv = Kv.open(":memory:", KvOptions.defaults())) {
      kv.bindMeters(sink);
      kv.set(KvKey.of("a"), 1);
      assertThat(sink.toString()).doesNotContain("wal");
      assertThat(sink.samples("kvasir.engine.commit.batch.size")).isNotEmpty()
          .allMatch(size -> size >= 1);
    }
  }
}
