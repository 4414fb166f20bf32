package dev.kvasir.dag.engine;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel through which a {@link BlockLog} reads and writes its file, kept usable when a
 * thread using it is interrupted (docs/dag-engine.md §2): a {@code FileChannel} closes itself
 * when a thread blocked in it is interrupted, which would end every reader's access. Each call
 * sets the thread's interrupt status aside and puts it back after; an interrupt that arrives
 * during the call still closes the channel, and then the file is opened again and the call
 * re-run, a write at the same position. Thread-safe.
 */
final class LogChannel implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LogChannel.class);

  private final Path file;
  private final boolean readOnly;
  /** Replaced when an interrupted thread closed it. */
  private volatile FileChannel channel;
  private volatile boolean closed;

  /** Takes over {@code channel}, open on {@code file} to read, and to write unless read-only. */
  LogChannel(Path file, FileChannel channel, boolean readOnly) {
    this.file = file;
    this.channel = channel;
    this.readOnly = readOnly;
  }

  /** Channel work, re-run on a fresh channel if another thread's interrupt closed this one. */
  interface Io<T> {
    T run(FileChannel channel) throws IOException;
  }

  /** Runs {@code io} on the channel, with the thread's interrupt set aside for the call. */
  <T> T io(Io<T> io) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        FileChannel c = channel;
        try {
          return io.run(c);
        } catch (ClosedChannelException e) {
          if (closed) {
            throw e;
          }
          // A ClosedByInterruptException leaves this thread's interrupt set: keep it for later.
          interrupted |= Thread.interrupted();
          reopen(c);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Synchronized with {@link #close}, so that no channel opened after it is left open. */
  private synchronized void reopen(FileChannel broken) throws IOException {
    if (closed || channel != broken) {
      return; // closed on purpose, or another thread reopened it already
    }
    channel = readOnly ? FileChannel.open(file, StandardOpenOption.READ)
        : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    log.debug("{}: reopened after an interrupt closed it", file);
  }

  long size() throws IOException {
    return io(FileChannel::size);
  }

  /**
   * Reads into {@code buffer}'s room from {@code position} until it is full or the file ends;
   * returns how many bytes it read.
   */
  int readAt(ByteBuffer buffer, long position) throws IOException {
    int start = buffer.position();
    return io(c -> {
      buffer.position(start); // again from the start if re-run
      long at = position;
      while (buffer.hasRemaining()) {
        int n = c.read(buffer, at);
        if (n < 0) {
          break;
        }
        at += n;
      }
      return buffer.position() - start;
    });
  }

  /** Fills {@code buffer}'s room from {@code position}; the file ending first is an error. */
  void readFully(ByteBuffer buffer, long position) throws IOException {
    int wanted = buffer.remaining();
    int read = readAt(buffer, position);
    if (read < wanted) {
      throw new EOFException(file + " ends at " + (position + read));
    }
  }

  /**
   * Fills {@code window} from the file at {@code position}, up to {@code size} or the file's end
   * if that comes first; returns how many bytes it holds.
   */
  int readUpTo(ByteBuffer window, long position, long size) throws IOException {
    window.clear();
    if (size - position < window.capacity()) {
      window.limit((int) (size - position));
    }
    return readAt(window, position);
  }

  /** Writes {@code buffer}'s remaining bytes at {@code position}. */
  void writeAt(ByteBuffer buffer, long position) throws IOException {
    int start = buffer.position();
    io(c -> {
      buffer.position(start); // again from the start if re-run
      long at = position;
      while (buffer.hasRemaining()) {
        at += c.write(buffer, at);
      }
      return null;
    });
  }

  /** Syncs the file, as {@link FileChannel#force} does. */
  void force(boolean metaData) throws IOException {
    io(c -> {
      c.force(metaData);
      return null;
    });
  }

  void truncate(long size) throws IOException {
    io(c -> c.truncate(size));
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}
