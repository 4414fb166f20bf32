package dev.kvasir.bench;

import com.google.protobuf.ByteString;
import dev.kvasir.KvKey;
import dev.kvasir.connect.proto.Watch;
import dev.kvasir.connect.proto.WatchKey;
import dev.kvasir.server.KvServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * Many watch streams held open against a {@link KvServer}, each on an HTTP/1.1 connection of
 * its own, their frames read and dropped: the load that watches put on a server.
 */
final class WatchClients implements AutoCloseable {
  private final List<CompletableFuture<HttpResponse<Void>>> streams = new ArrayList<>();

  private WatchClients() {}

  /** Opens {@code n} streams, stream {@code i} watching {@code key.apply(i)}, and waits. */
  static WatchClients open(KvServer server, String token, int n, IntFunction<KvKey> key)
      throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    WatchClients clients = new WatchClients();
    for (int i = 0; i < n; i++) {
      byte[] body = Watch.newBuilder().addKeys(WatchKey.newBuilder()
          .setKey(ByteString.copyFrom(key.apply(i).encode()))).build().toByteArray();
      clients.streams.add(http.sendAsync(HttpRequest.newBuilder(
              URI.create(server.url() + "/v2/watch"))
          .header("authorization", "Bearer " + token)
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
          HttpResponse.BodyHandlers.discarding()));
    }
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (server.openWatches() < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + server.openWatches() + " of " + n
            + " watch streams opened (ulimit -n?)");
      }
      Thread.sleep(50);
    }
    return clients;
  }

  @Override
  public void close() {
    streams.forEach(s -> s.cancel(true));
  }
}
