package dev.kvasir.bench;

import com.google.protobuf.ByteString;
import dev.kvasir.KvKey;
import dev.kvasir.connect.proto.Watch;
import dev.kvasir.connect.proto.WatchKey;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Many watch streams held open against a server, each on an HTTP/1.1 connection of its own,
 * their frames read and dropped: the load that watches put on a server. They run in a process
 * of their own ({@link #start}), so that the server's process and this one each stay within
 * their file descriptor limit (a connection costs one at each end).
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.WatchClients URL TOKEN N</pre>
 *
 * watches {@code ["item", i % 1000]} for i in 0..N-1, prints {@code opened N} and runs until
 * its standard input closes.
 */
final class WatchClients implements AutoCloseable {
  private static final int BATCH = 100;
  private final Process process;

  private WatchClients(Process process) {
    this.process = process;
  }

  /** Starts {@code n} streams in a child process and waits until the server has them open. */
  static WatchClients start(LoadServer server, String token, int n) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", System.getProperty("java.class.path"), WatchClients.class.getName(),
        server.url(), token, String.valueOf(n)).redirectOutput(ProcessBuilder.Redirect.INHERIT)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    long deadline = System.nanoTime() + 180_000_000_000L;
    while (server.openWatches() < n) {
      if (System.nanoTime() > deadline || !p.isAlive()) {
        p.destroyForcibly();
        throw new IllegalStateException("only " + server.openWatches() + " of " + n
            + " watch streams opened (ulimit -n?)");
      }
      Thread.sleep(50);
    }
    return new WatchClients(p);
  }

  @Override
  public void close() throws IOException {
    process.getOutputStream().close();
    process.destroy();
  }

  /** Reads a stream's frames and drops them. */
  private static final class Discard implements Flow.Subscriber<List<ByteBuffer>> {
    @Override
    public void onSubscribe(Flow.Subscription s) {
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onComplete() {}
  }

  /** One stream, tried again (up to {@code tries} times) if its connection is refused. */
  private static CompletableFuture<HttpResponse<Flow.Publisher<List<ByteBuffer>>>> watch(
      HttpClient http, String url, String token, byte[] body, int tries) {
    return http.sendAsync(HttpRequest.newBuilder(URI.create(url + "/v2/watch"))
        .header("authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofPublisher()).thenApply(r -> {
          r.body().subscribe(new Discard());
          return r;
        }).exceptionallyCompose(e -> tries > 1 ? watch(http, url, token, body, tries - 1)
            : CompletableFuture.failedFuture(e));
  }

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String token = args[1];
    int n = Integer.parseInt(args[2]);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<CompletableFuture<HttpResponse<Flow.Publisher<List<ByteBuffer>>>>> streams =
        new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] body = Watch.newBuilder().addKeys(WatchKey.newBuilder()
          .setKey(ByteString.copyFrom(KvKey.of("item", i % 1000).encode()))).build()
          .toByteArray();
      streams.add(watch(http, url, token, body, 5));
      // Connect in batches: thousands of connection attempts at once overflow the server's
      // accept queue, and a dropped SYN is retried only after seconds.
      if (i % BATCH == BATCH - 1) {
        CompletableFuture.allOf(streams.subList(i + 1 - BATCH, i + 1)
            .toArray(CompletableFuture[]::new)).join();
      }
    }
    System.out.println("opened " + n);
    while (System.in.read() != -1) {
      // runs until the parent closes standard input
    }
    streams.forEach(s -> s.cancel(true));
    System.exit(0);
  }
}
