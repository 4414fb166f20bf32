package dev.kvasir.dag.engine;

import dev.kvasir.base.KvException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one writer of a {@code dag:} directory (docs/dag-engine.md §2): an exclusive lock on
 * {@code DIR/writer.lock}, held until {@link #close}.
 *
 * <p>The lock has its own file and channel, on which nothing is ever read or written. On Linux a
 * process's lock on a file goes away when any of its channels on that file closes. So the lock
 * must not sit on the block file, which readers open and close and which an interrupted thread
 * can close under the writer. This JVM's own holders are kept in a set: a second writer in the
 * same JVM is refused before it opens (and later closes) a channel on the lock file.
 */
final class WriterLock implements AutoCloseable {
  static final String FILE_NAME = "writer.lock";
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path path;
  private final FileChannel channel;

  private WriterLock(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Takes the lock of {@code dir}, or refuses if another writer holds it. */
  static WriterLock take(Path dir) throws IOException {
    Path path = dir.resolve(FILE_NAME).toAbsolutePath().normalize();
    if (!HELD.add(path)) {
      throw refused(dir);
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        throw refused(dir);
      }
      return new WriterLock(path, channel);
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      HELD.remove(path);
      throw e;
    }
  }

  private static KvException refused(Path dir) {
    return new KvException("KV/DAG database " + dir + " is open for writing elsewhere (another"
        + " process or engine); open it read-only or close the other first");
  }

  @Override
  public void close() {
    try {
      channel.close(); // releases the lock
    } catch (IOException e) {
      // the process keeps no lock on a closed channel either way
    } finally {
      HELD.remove(path);
    }
  }
}
