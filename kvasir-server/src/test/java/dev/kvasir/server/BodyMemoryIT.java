package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.proto.ReadRange;
import dev.kvasir.connect.proto.SnapshotRead;
import dev.kvasir.memory.MemoryEngine;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * The server holds request bodies and read answers within its memory limit (docs/operations.md
 * §10): beyond it, requests get 503 instead of the heap filling up, and everyone else is served.
 */
class BodyMemoryIT {
  private static final String TOKEN = "body-memory-token";
  private static final int MIB = 1 << 20;

  @Test
  void stalledUploadsBeyondTheLimit_areRefused503AtOnce_andOthersAreServed() throws Exception {
    int declared = 5 * MIB / 2;
    try (KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(TOKEN).port(0)
            .maxBodyMemory(8 * MIB).bodyDeadline(Duration.ofSeconds(3)).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN))) {
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 1; i <= 3; i++) {
          stalled.add(startUpload(server.port(), declared));
          awaitHeld(server, (long) i * declared);
        }
        // Three fit (7.5 MiB); a fourth is answered at once, its body unread.
        stalled.add(startUpload(server.port(), declared));
        String refused = readAnswer(stalled.get(3));
        assertThat(refused).startsWith("HTTP/1.1 503").containsIgnoringCase("Retry-After: 1")
            .containsIgnoringCase("Connection: close").contains("try again shortly");
        assertThat(server.bodyMemoryHeld()).isEqualTo(3L * declared);

        kv.set(KvKey.of("served"), "while three uploads stall");
        assertThat(kv.get(KvKey.of("served")).value()).isEqualTo("while three uploads stall");

        for (Socket s : stalled.subList(0, 3)) {
          assertThat(readAnswer(s)).startsWith("HTTP/1.1 408");
        }
        awaitHeld(server, 0);
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
    }
  }

  @Test
  void answersAClientDoesNotRead_areHeldWithinTheLimit_andTheRestWaitThen503() throws Exception {
    MemoryEngine engine = MemoryEngine.open();
    try (KvServer server = KvServer.builder(engine).accessToken(TOKEN).port(0)
            .maxBodyMemory(20 * MIB).bodyDeadline(Duration.ofSeconds(2))
            .idleTimeout(Duration.ofSeconds(4)).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN))) {
      String value = "v".repeat(60_000);
      for (int i = 0; i < 40; i++) {
        kv.set(KvKey.of("big", i), value); // 40 entries: an answer of 2.4 MB
      }
      HTTP2Client client = new HTTP2Client();
      // Windows of 64 KiB that are never opened further: the answers stay with the server.
      client.setInitialSessionRecvWindow(65_535);
      client.setInitialStreamRecvWindow(65_535);
      client.start();
      try {
        Session session = client.connect(new InetSocketAddress("127.0.0.1", server.port()),
            new Session.Listener() {}).get(10, TimeUnit.SECONDS);
        int reads = 10;
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        CountDownLatch answered = new CountDownLatch(reads);
        for (int i = 0; i < reads; i++) {
          sendUnreadRead(session, server.port(), statuses, answered);
        }
        assertThat(answered.await(30, TimeUnit.SECONDS)).as("every read answered").isTrue();

        // Each read sets aside room for 40 entries of the largest size Deno allows (5.4 MB), then
        // keeps what its answer needs: a few fit, the rest wait for the deadline and get 503.
        assertThat(statuses.values()).contains(200, 503).containsOnly(200, 503);
        assertThat(server.bodyMemoryHeld()).isBetween(2_400_000L, 20L * MIB);
        // A small read still fits beside them.
        assertThat(kv.get(KvKey.of("big", 7)).value()).isEqualTo(value);

        // The server gives up the streams of a client that reads nothing at its idle timeout,
        // and with them the memory, without the client's help.
        awaitHeld(server, 0);
      } finally {
        client.stop();
      }
    }
  }

  private static Socket startUpload(int port, int declared) throws Exception {
    Socket s = new Socket("127.0.0.1", port);
    OutputStream out = s.getOutputStream();
    out.write(("POST /v2/atomic_write HTTP/1.1\r\nHost: localhost\r\n"
        + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/x-protobuf\r\n"
        + "Content-Length: " + declared + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(new byte[64 * 1024]);
    out.flush();
    return s;
  }

  private static String readAnswer(Socket s) throws Exception {
    s.setSoTimeout(30_000);
    InputStream in = s.getInputStream();
    byte[] buffer = new byte[4096];
    int n = in.read(buffer);
    return new String(buffer, 0, Math.max(n, 0), StandardCharsets.US_ASCII);
  }

  private static void sendUnreadRead(Session session, int port, Map<Integer, Integer> statuses,
      CountDownLatch answered) throws Exception {
    // The prefix ["big"] as Deno lists it: its encoding followed by 00, up to its encoding and FF.
    ByteString prefix = ByteString.copyFrom(KvKey.of("big").encode());
    byte[] body = SnapshotRead.newBuilder().addRanges(ReadRange.newBuilder()
        .setStart(prefix.concat(ByteString.copyFrom(new byte[] {0})))
        .setEnd(prefix.concat(ByteString.copyFrom(new byte[] {(byte) 0xff}))).setLimit(40))
        .build().toByteArray();
    MetaData.Request request = new MetaData.Request("POST",
        HttpURI.from("http://127.0.0.1:" + port + "/v2/snapshot_read"), HttpVersion.HTTP_2,
        HttpFields.build().put("authorization", "Bearer " + TOKEN)
            .put("content-type", "application/x-protobuf"));
    Stream stream = session.newStream(new HeadersFrame(request, null, false),
        new Stream.Listener() {
          @Override
          public void onHeaders(Stream s, HeadersFrame frame) {
            statuses.put(s.getId(), ((MetaData.Response) frame.getMetaData()).getStatus());
            answered.countDown();
          }

          @Override
          public void onDataAvailable(Stream s) {
            // never read: the answer stays with the server
          }
        }).get(10, TimeUnit.SECONDS);
    stream.data(new DataFrame(stream.getId(), ByteBuffer.wrap(body), true), Callback.NOOP);
  }

  private static void awaitHeld(KvServer server, long bytes) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (server.bodyMemoryHeld() != bytes && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(server.bodyMemoryHeld()).isEqualTo(bytes);
  }
}
