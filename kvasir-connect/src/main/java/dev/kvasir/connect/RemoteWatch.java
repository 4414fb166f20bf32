package dev.kvasir.connect;

import dev.kvasir.connect.proto.WatchOutput;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One watch over a KV Connect v3 stream (docs/kv-connect.md §7): frames of {@code u32 LE
 * length ‖ WatchOutput}, empty frames being pings. A stream that ends or breaks is reopened
 * after a backoff, as Deno does; its first frame is a full snapshot again, so no final state is
 * missed.
 */
final class RemoteWatch implements EngineWatch {
  /** Deno's client refuses longer frames too. */
  private static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
  private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(5);

  private final RemoteEngine engine;
  private final List<RawKey> keys;
  private InputStream stream; // guarded by this
  /** Whether a stream was ever open: a lost one broke, else the server would not take it. */
  private boolean opened; // guarded by this
  private List<Optional<RawEntry>> last;
  private volatile boolean closed;
  /** Counted down on close, which ends a wait before reconnecting at once. */
  private final CountDownLatch closing = new CountDownLatch(1);

  RemoteWatch(RemoteEngine engine, List<RawKey> keys) {
    this.engine = engine;
    this.keys = List.copyOf(keys);
  }

  @Override
  public List<Optional<RawEntry>> next() throws InterruptedException {
    Duration delay = engine.config().retryDelay();
    while (!closed && !engine.isClosed()) {
      try {
        InputStream in = stream();
        while (true) {
          byte[] frame = readFrame(in);
          if (closed) {
            return null;
          }
          if (frame.length > 0) {
            last = Wire.watchEntries(WatchOutput.parseFrom(frame), last);
            return last;
          }
        }
      } catch (IOException e) {
        dropStream();
        if (closed) {
          break;
        }
        engine.watchOutage().lost(this, e, wasOpened());
        if (closing.await(delay.toMillis(), TimeUnit.MILLISECONDS)) {
          break; // closed while waiting: a blocked next() returns at once, as promised
        }
        delay = RemoteEngine.doubled(delay, MAX_RECONNECT_DELAY);
      }
    }
    return null;
  }

  private synchronized InputStream stream() throws IOException, InterruptedException {
    if (stream == null) {
      stream = engine.openWatchStream(keys);
      opened = true;
      engine.watchOutage().reconnected(this);
    }
    return stream;
  }

  private synchronized boolean wasOpened() {
    return opened;
  }

  /**
   * The next frame. Read with {@code readFully}, which never asks the stream for zero bytes:
   * {@code readNBytes} does once it has what it wants, and Jetty's response stream waits for
   * more data before answering that, which would hold each frame back until the next ping.
   */
  private static byte[] readFrame(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    byte[] header = new byte[4];
    try {
      data.readFully(header);
    } catch (EOFException e) {
      throw new EOFException("watch stream ended");
    }
    int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16
        | (header[3] & 0xff) << 24;
    if (length < 0 || length > MAX_FRAME_BYTES) {
      throw new IOException("watch frame of " + Integer.toUnsignedString(length) + " bytes");
    }
    byte[] frame = new byte[length];
    try {
      data.readFully(frame);
    } catch (EOFException e) {
      throw new EOFException("watch stream ended inside a frame");
    }
    return frame;
  }

  private synchronized void dropStream() {
    if (stream != null) {
      try {
        stream.close();
      } catch (IOException ignored) {
        // already broken
      }
      stream = null;
    }
  }

  @Override
  public void close() {
    closed = true;
    closing.countDown();
    dropStream();
    engine.watchOutage().closed(this);
    engine.watchClosed(this);
  }
}
