package dev.kvasir.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The {@link Utf8Lines} of an input, read on a thread of their own and handed over in chunks.
 * A read from a pipe that stalls blocks, and nothing interrupts it: read on the command's own
 * thread, an import neither saw Ctrl-C or SIGTERM nor committed the lines it had until the
 * producer wrote again. Here the command waits for lines with a timeout ({@link #await}), so it
 * can do both while the input is silent (docs/operations.md §3).
 */
final class LineFeed implements AutoCloseable {
  /** A chunk is handed over at this many lines or bytes, or when the input has no more yet. */
  private static final int CHUNK_LINES = 256;
  private static final int CHUNK_BYTES = 1 << 20;

  /** A few chunks read ahead, so that reading and committing overlap. */
  private final BlockingQueue<Chunk> chunks = new ArrayBlockingQueue<>(4);
  private final Thread reader;
  private Chunk current = new Chunk(List.of(), false, null);
  private int next;

  /** Lines; {@code last} for the chunk that ends the input, with its failure if it failed. */
  private record Chunk(List<String> lines, boolean last, Exception failure) {}

  /** Starts reading {@code in}, which should be buffered. */
  LineFeed(InputStream in) {
    reader = new Thread(() -> read(new Utf8Lines(in), in), "kvasir-input");
    // A read that blocks on a silent pipe cannot be ended; it must not keep the JVM alive.
    reader.setDaemon(true);
    reader.start();
  }

  private void read(Utf8Lines lines, InputStream in) {
    List<String> chunk = new ArrayList<>();
    int bytes = 0;
    try {
      try {
        for (String line = lines.next(); line != null; line = lines.next()) {
          chunk.add(line);
          bytes += line.length();
          // Before a read that would wait for the producer, the lines so far go.
          if (chunk.size() == CHUNK_LINES || bytes >= CHUNK_BYTES || in.available() == 0) {
            chunks.put(new Chunk(chunk, false, null));
            chunk = new ArrayList<>();
            bytes = 0;
          }
        }
        chunks.put(new Chunk(chunk, true, null));
      } catch (IOException | RuntimeException e) {
        chunks.put(new Chunk(chunk, true, e));
      }
    } catch (InterruptedException e) {
      // closed: nobody takes lines any more
    }
  }

  /**
   * Whether the next line, the end of the input or its failure has come within {@code wait}.
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  boolean await(Duration wait) throws InterruptedException {
    if (next < current.lines().size() || current.last()) {
      return true;
    }
    Chunk chunk = chunks.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
    if (chunk == null) {
      return false;
    }
    current = chunk;
    next = 0;
    return true;
  }

  /**
   * The next line, waiting for it as long as it takes; null at the end of the input.
   *
   * @throws IOException as {@link Utf8Lines#next()} threw it, at the line it failed on
   */
  String next() throws IOException {
    try {
      while (!await(Duration.ofSeconds(1))) {
        // the producer is silent; a line or the end will come
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for input");
    }
    if (next < current.lines().size()) {
      return current.lines().get(next++);
    }
    if (current.failure() instanceof IOException e) {
      throw e;
    } else if (current.failure() instanceof RuntimeException e) {
      throw e;
    }
    return null;
  }

  /** Stops the reading thread, unless it waits for the input, where it stays until that ends. */
  @Override
  public void close() {
    reader.interrupt();
  }
}
