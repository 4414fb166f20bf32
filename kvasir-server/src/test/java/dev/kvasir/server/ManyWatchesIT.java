package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.proto.Watch;
import dev.kvasir.connect.proto.WatchKey;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watch streams hold no server thread: 2 000 of them stay open on a server whose pool has 64
 * threads, each gets its frames, and reads and writes are still answered meanwhile. Past the
 * configured limit a watch is refused with 429 at once.
 */
class ManyWatchesIT {
  private static final String TOKEN = "many-watches-token";
  private static final int STREAMS = 2_000;

  @TempDir Path dir;

  /** Counts the non-empty frames of one watch stream. */
  private static final class Frames implements Flow.Subscriber<List<ByteBuffer>> {
    final AtomicInteger frames = new AtomicInteger();
    final CountDownLatch first;
    final CountDownLatch second;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    Frames(CountDownLatch first, CountDownLatch second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      for (ByteBuffer b : items) {
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        pending.writeBytes(bytes);
      }
      byte[] all = pending.toByteArray();
      int at = 0;
      while (all.length - at >= 4) {
        int length = (all[at] & 0xff) | (all[at + 1] & 0xff) << 8 | (all[at + 2] & 0xff) << 16
            | (all[at + 3] & 0xff) << 24;
        if (all.length - at - 4 < length) {
          break;
        }
        at += 4 + length;
        if (length > 0) {
          int n = frames.incrementAndGet();
          (n == 1 ? first : second).countDown();
        }
      }
      pending.reset();
      pending.write(all, at, all.length - at);
    }

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onComplete() {}
  }

  private static HttpRequest watchRequest(KvServer server, KvKey key) {
    byte[] body = Watch.newBuilder().addKeys(WatchKey.newBuilder()
        .setKey(ByteString.copyFrom(key.encode()))).build().toByteArray();
    return HttpRequest.newBuilder(URI.create(server.url() + "/v2/watch"))
        .header("authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
  }

  @Test
  void twoThousandWatchStreams_stayOpen_withoutHoldingThreads_whileGetsAreAnswered()
      throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(
            dir.resolve("watched.sqlite3").toString()));
        KvServer server = KvServer.builder(engine).accessToken(TOKEN).port(0).maxThreads(64)
            .start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN))) {
      CountDownLatch first = new CountDownLatch(STREAMS);
      CountDownLatch second = new CountDownLatch(STREAMS);
      List<CompletableFuture<HttpResponse<Void>>> responses = new ArrayList<>();
      for (int i = 0; i < STREAMS; i++) {
        Frames frames = new Frames(first, second);
        responses.add(http.sendAsync(watchRequest(server, KvKey.of("w", i % 10)),
            HttpResponse.BodyHandlers.fromSubscriber(frames)));
      }
      assertThat(first.await(120, TimeUnit.SECONDS)).as("every stream's first frame, %d left",
          first.getCount()).isTrue();

      // The server still answers reads and writes with 2 000 streams open on 64 threads.
      for (int i = 0; i < 10; i++) {
        kv.set(KvKey.of("w", i), "changed " + i);
        assertThat(kv.get(KvKey.of("w", i)).value()).isEqualTo("changed " + i);
      }
      assertThat(second.await(120, TimeUnit.SECONDS)).as("every stream saw its change, %d"
          + " left", second.getCount()).isTrue();
      responses.forEach(r -> r.cancel(true));
    }
  }

  @Test
  void aWatchPastTheLimit_isRefusedAtOnce() throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(
            dir.resolve("limited.sqlite3").toString()));
        KvServer server = KvServer.builder(engine).accessToken(TOKEN).port(0).maxWatches(3)
            .start()) {
      CountDownLatch first = new CountDownLatch(3);
      for (int i = 0; i < 3; i++) {
        http.sendAsync(watchRequest(server, KvKey.of("k")),
            HttpResponse.BodyHandlers.fromSubscriber(new Frames(first, new CountDownLatch(1))));
      }
      assertThat(first.await(30, TimeUnit.SECONDS)).isTrue();
      HttpResponse<String> refused = http.send(watchRequest(server, KvKey.of("k")),
          HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.body()).contains("Too many watch streams");
    }
  }
}
