package dev.kvasir.server;

import dev.kvasir.connect.Wire;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.RawEntry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Streams one watch that cannot call back ({@link EngineWatch#listen}, a remote engine's) as KV
 * Connect frames (docs/kv-connect.md §7): {@code u32 LE length ‖ WatchOutput}, the first a full
 * snapshot, one after every change, and an empty frame every {@link WatchStreams#PING_SECONDS} s
 * so that idle connections stay open. A helper thread waits for changes; the request's thread
 * writes. A client that goes away ends both. Watches that can call back need no thread: see
 * {@link WatchStreams}.
 */
final class WatchStreamer {
  private static final List<Optional<RawEntry>> END = List.of();

  private WatchStreamer() {}

  static void stream(EngineWatch watch, Response response, Callback callback) {
    BlockingQueue<List<Optional<RawEntry>>> frames = new ArrayBlockingQueue<>(1);
    Thread waiter = new Thread(() -> {
      try {
        for (List<Optional<RawEntry>> e; (e = watch.next()) != null; ) {
          frames.put(e);
        }
      } catch (InterruptedException e) {
        // the stream ended
      } catch (RuntimeException e) {
        // the engine closed under the watch
      }
      frames.offer(END);
    }, "kvasir-server-watch");
    waiter.setDaemon(true);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
    waiter.start();
    try (OutputStream out = Content.Sink.asOutputStream(response)) {
      while (true) {
        List<Optional<RawEntry>> entries =
            frames.poll(WatchStreams.PING_SECONDS, TimeUnit.SECONDS);
        if (entries == END) {
          break;
        }
        byte[] frame = entries == null ? new byte[0] : Wire.watchOutput(entries).toByteArray();
        out.write(littleEndian(frame.length));
        out.write(frame);
        out.flush();
      }
      callback.succeeded();
    } catch (IOException e) {
      callback.failed(e); // the client went away
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      callback.failed(e);
    } finally {
      watch.close();
      waiter.interrupt();
    }
  }

  private static byte[] littleEndian(int n) {
    return new byte[] {(byte) n, (byte) (n >>> 8), (byte) (n >>> 16), (byte) (n >>> 24)};
  }
}
