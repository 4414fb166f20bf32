package dev.kvasir.server;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * A request's body read into one array as its bytes arrive, without holding a thread, within
 * the server's {@link BodyMemory}. Each chunk is copied and handed back to Jetty at once, so
 * that a body that arrives slowly holds heap it was granted rather than Jetty's network buffers
 * (docs/operations.md §10). The memory is held until {@link #release}.
 */
final class RequestBody implements Runnable {
  /** The first array for a body of unknown length; it doubles as needed. */
  private static final int FIRST_CAPACITY = 16 * 1024;

  private final Content.Source source;
  private final BodyMemory memory;
  private final int max;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private byte[] bytes;
  private int size;
  /** The bytes taken from {@link #memory}; -1 once released. Guarded by this. */
  private long taken;

  /**
   * Sets memory aside for the body {@code request} declares (or a first part of one of unknown
   * length) and returns a reader for it; refused with 503 if that does not fit.
   */
  static RequestBody reserve(Request request, BodyMemory memory, int max)
      throws Refused {
    long declared = request.getLength();
    int capacity = declared >= 0 ? (int) Math.min(declared, max) : Math.min(FIRST_CAPACITY, max);
    if (!memory.takeForBody(capacity)) {
      throw memory.refusal();
    }
    return new RequestBody(request, memory, max, capacity);
  }

  private RequestBody(Content.Source source, BodyMemory memory, int max, int capacity) {
    this.source = source;
    this.memory = memory;
    this.max = max;
    this.bytes = new byte[capacity];
    this.taken = capacity;
  }

  /** Starts reading; the future fails with a {@link Refused} or Jetty's error. */
  CompletableFuture<byte[]> read() {
    run();
    return result;
  }

  /** Reads what has arrived, then asks Jetty to call again when more has. */
  @Override
  public void run() {
    while (!result.isDone()) { // given up (the body deadline): read no further
      Content.Chunk chunk = source.read();
      if (chunk == null) {
        source.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        result.completeExceptionally(chunk.getFailure());
        return;
      }
      try {
        append(chunk.getByteBuffer());
      } catch (Refused r) {
        result.completeExceptionally(r);
        return;
      } finally {
        chunk.release();
      }
      if (chunk.isLast()) {
        result.complete(size == bytes.length ? bytes : Arrays.copyOf(bytes, size));
        return;
      }
    }
  }

  private void append(ByteBuffer buffer) throws Refused {
    int n = buffer.remaining();
    if (n > max - size) {
      throw new Refused(413, "The request body is too large (max " + max
          + " bytes).");
    }
    if (size + n > bytes.length) {
      grow(Math.min(max, Math.max(size + n, bytes.length * 2)));
    }
    buffer.get(bytes, size, n);
    size += n;
  }

  private synchronized void grow(int capacity) throws Refused {
    long more = capacity - bytes.length;
    if (taken < 0 || !memory.takeForBody(more)) {
      throw memory.refusal();
    }
    taken += more;
    bytes = Arrays.copyOf(bytes, capacity);
  }

  /** Gives the body's memory back: its request is answered. Later calls do nothing. */
  synchronized void release() {
    if (taken >= 0) {
      memory.giveForBody(taken);
      taken = -1;
    }
  }
}
