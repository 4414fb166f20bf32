package dev.kvasir.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A server that stops answers requests on a connection it is closing with GOAWAY (RFC 9113
 * §6.8), and Jetty fails them with a {@code RetryableRequestException}, a runtime exception the
 * client took for a bug: it escaped the retries, and ended the thread of a queue listener. The
 * server here speaks just enough HTTP/2 to refuse every request that way.
 */
class GoAwayTest {
  private static final int HEADERS = 1;
  private static final int SETTINGS = 4;
  private static final int GOAWAY = 7;

  /** Refuses each connection's first request with GOAWAY; counts the requests refused. */
  private static final class RefusingServer implements AutoCloseable {
    final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final AtomicInteger refused = new AtomicInteger();
    private final Thread thread = new Thread(this::serve, "go-away-server");

    RefusingServer() throws IOException {
      thread.setDaemon(true);
      thread.start();
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket s = socket.accept()) {
          DataInputStream in = new DataInputStream(s.getInputStream());
          OutputStream out = s.getOutputStream();
          in.readFully(new byte[24]); // the client's preface
          out.write(frame(SETTINGS, 0, new byte[0]));
          out.flush();
          while (true) {
            byte[] header = new byte[9];
            in.readFully(header);
            int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | header[2] & 0xff;
            in.readFully(new byte[length]);
            if (header[3] == HEADERS) {
              // Last stream processed: 0, so the request's stream was not; no error.
              out.write(frame(GOAWAY, 0, ByteBuffer.allocate(8).putInt(0).putInt(0).array()));
              out.flush();
              refused.incrementAndGet();
              Thread.sleep(200); // the client reads the GOAWAY before the connection ends
              break;
            }
          }
        } catch (IOException | InterruptedException e) {
          // the client went away, or the test ended
        }
      }
    }

    private static byte[] frame(int type, int flags, byte[] payload) {
      return ByteBuffer.allocate(9 + payload.length)
          .put((byte) (payload.length >> 16)).put((byte) (payload.length >> 8))
          .put((byte) payload.length).put((byte) type).put((byte) flags).putInt(0)
          .put(payload).array();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void aRequestRefusedByGoAway_isRetried_thenReportedAsTheServerOutOfReach() throws Exception {
    try (RefusingServer server = new RefusingServer()) {
      String url = "http://127.0.0.1:" + server.socket.getLocalPort();
      KvOptions options = KvOptions.defaults().with("accessToken", "test-token-0123456789")
          .with("remote.maxRetries", "2").with("remote.retryDelayMs", "10");
      assertThatThrownBy(() -> Kv.open(url, options).close()) // opening fetches the metadata
          .isInstanceOf(KvException.class)
          .hasMessageContaining("after 3 attempts")
          .hasMessageContaining("closed as the request was sent");
      assertThat(server.refused.get()).as("each attempt on a new connection").isEqualTo(3);
    }
  }
}
