package dev.kvasir.sqlite;

import dev.kvasir.base.MeterSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;

/**
 * What only the SQLite engine measures (docs/operations.md §5): waits for another process's
 * lock, and its write-ahead log, read off the file: its size, and the checkpoint sequence number
 * in its header, which SQLite steps each time a checkpoint let the log start over
 * (docs/sqlite.md §7).
 */
final class SqliteMeters {
  /** Counts one wait for a lock held by another connection; nothing until bound. */
  private volatile LongConsumer lockWaits = n -> { };

  void lockWaited() {
    lockWaits.accept(1);
  }

  void bind(MeterSink sink, String path) {
    lockWaits = lockWaits.andThen(sink.counter("kvasir.sqlite.lock.waits",
        "Waits for a lock another process or connection held (busy, retried)"));
    if (path == null) {
      return; // in memory: no file, no log
    }
    Path wal = Path.of(path + "-wal");
    // Named with its unit, as Prometheus names are (kvasir_sqlite_wal_size_bytes).
    sink.gauge("kvasir.sqlite.wal.size.bytes", "Bytes in the write-ahead log file",
        () -> size(wal));
    sink.functionCounter("kvasir.sqlite.wal.checkpoints",
        "Checkpoints after which the write-ahead log started over", () -> checkpoints(wal));
  }

  private static double size(Path wal) {
    try {
      return Files.size(wal);
    } catch (IOException e) {
      return 0; // no log: everything is in the database file
    }
  }

  /** The big-endian checkpoint sequence number at byte 12 of the log's header. */
  private static double checkpoints(Path wal) {
    try (FileChannel f = FileChannel.open(wal, StandardOpenOption.READ)) {
      ByteBuffer header = ByteBuffer.allocate(4);
      if (f.read(header, 12) < 4) {
        return 0;
      }
      return Integer.toUnsignedLong(header.getInt(0));
    } catch (IOException e) {
      return 0;
    }
  }
}
