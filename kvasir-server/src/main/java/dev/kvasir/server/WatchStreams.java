package dev.kvasir.server;

import dev.kvasir.connect.Wire;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.RawEntry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Watch streams that hold no thread while they wait (docs/kv-connect.md §7). A stream is told
 * of a change by its engine watch ({@link EngineWatch#listen}); a small pool then reads the
 * watched keys and writes the frame without blocking, and one timer sends every idle stream an
 * empty frame each {@link #PING_SECONDS} s. A client that resets its HTTP/2 stream ends it at
 * once, through the request's failure listener; one that closes an HTTP/1.1 connection, or
 * vanishes without a word, fails the next write. Watches that cannot call back (a remote
 * engine's) fall back to a thread each ({@link WatchStreamer}).
 */
final class WatchStreams implements AutoCloseable {
  static final int PING_SECONDS = 5;
  private static final ByteBuffer PING = ByteBuffer.wrap(new byte[4]).asReadOnlyBuffer();

  private final ExecutorService workers;
  private final ScheduledExecutorService pinger;
  private final Set<Stream> open = ConcurrentHashMap.newKeySet();

  WatchStreams() {
    workers = Executors.newFixedThreadPool(2, daemon("kvasir-server-watch"));
    pinger = Executors.newSingleThreadScheduledExecutor(daemon("kvasir-server-watch-ping"));
    pinger.scheduleAtFixedRate(() -> open.forEach(Stream::ping), PING_SECONDS, PING_SECONDS,
        TimeUnit.SECONDS);
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Streams {@code watch} on {@code response} until it ends, without holding the caller's
   * thread; {@code onEnd} runs once it ended.
   *
   * @return {@code false}, having touched nothing, if the watch cannot call back
   */
  boolean start(EngineWatch watch, Request request, Response response, Callback callback,
      Runnable onEnd) {
    Stream stream = new Stream(watch, response, callback, onEnd);
    open.add(stream);
    if (!watch.listen(stream::wake)) {
      open.remove(stream);
      return false;
    }
    // Before, a closed stream held its place among the server's watches until the next ping
    // failed to go out: up to 5 s, and 10 s with a client that resets only on that ping.
    request.addFailureListener(stream::end);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
    stream.wake(); // the first frame: the current state
    return true;
  }

  /** How many streams are open. */
  int size() {
    return open.size();
  }

  /** Ends every stream: clients reconnect (to another server, or to this one once back). */
  @Override
  public void close() {
    pinger.shutdownNow();
    open.forEach(s -> s.end(null));
    workers.shutdown();
  }

  /** One client's stream. */
  private final class Stream {
    private final EngineWatch watch;
    private final Response response;
    private final Callback callback;
    private final Runnable onEnd;
    /** Held while a frame is read or written, so that frames go out one at a time, in order. */
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    /** A change arrived while busy: look again when done. */
    private volatile boolean again;

    Stream(EngineWatch watch, Response response, Callback callback, Runnable onEnd) {
      this.watch = watch;
      this.response = response;
      this.callback = callback;
      this.onEnd = onEnd;
    }

    /** Called by the engine on a change: must not block or read. */
    void wake() {
      again = true;
      if (busy.compareAndSet(false, true)) {
        submit();
      }
    }

    private void submit() {
      try {
        workers.execute(this::run);
      } catch (RuntimeException e) { // shut down
        end(null);
      }
    }

    /** Reads the keys and writes a frame if they changed; runs while {@link #busy} is held. */
    private void run() {
      again = false;
      List<Optional<RawEntry>> state;
      try {
        state = watch.poll();
      } catch (RuntimeException e) {
        state = null; // the engine failed or closed under the watch: the client reconnects
      }
      if (state == null || ended.get()) {
        end(null);
        return;
      }
      if (state == EngineWatch.NO_CHANGE) {
        release();
        return;
      }
      byte[] frame = Wire.watchOutput(state).toByteArray();
      ByteBuffer out = ByteBuffer.allocate(4 + frame.length);
      out.put((byte) frame.length).put((byte) (frame.length >>> 8))
          .put((byte) (frame.length >>> 16)).put((byte) (frame.length >>> 24)).put(frame).flip();
      response.write(false, out, Callback.from(this::release, this::end));
    }

    private void release() {
      busy.set(false);
      if (again && busy.compareAndSet(false, true)) {
        submit();
      }
    }

    /** An empty frame keeps idle connections open; skipped while a frame is on its way. */
    void ping() {
      if (busy.compareAndSet(false, true)) {
        try {
          response.write(false, PING.duplicate(), Callback.from(this::release, this::end));
        } catch (RuntimeException e) {
          // Thrown out of the pinger's task, it would end the pings of every stream for good.
          end(e);
        }
      }
    }

    /** Ends the stream: normally with {@code null}, or because a write failed. */
    void end(Throwable failure) {
      if (!ended.compareAndSet(false, true)) {
        return;
      }
      open.remove(this);
      watch.close();
      onEnd.run();
      if (failure != null) {
        callback.failed(failure); // the client went away
        return;
      }
      try {
        response.write(true, ByteBuffer.allocate(0), callback);
      } catch (RuntimeException e) { // a frame still on its way (closing the server)
        callback.failed(e);
      }
    }
  }
}
