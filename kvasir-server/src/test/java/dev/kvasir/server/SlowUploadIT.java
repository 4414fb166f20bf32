package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.memory.MemoryEngine;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Request bodies are read without holding a thread: 300 clients that send a few bytes of their
 * body and then stall, on a server with 64 threads, block nobody; each gets 408 at the body
 * deadline.
 */
class SlowUploadIT {
  private static final String TOKEN = "slow-upload-token";

  @Test
  void stalledUploads_holdNoThread_andAreAnswered408AtTheDeadline() throws Exception {
    try (KvServer server = KvServer.builder(MemoryEngine.open()).accessToken(TOKEN).port(0)
            .maxThreads(64).bodyDeadline(Duration.ofSeconds(3)).start();
        Kv kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN))) {
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < 300; i++) {
          Socket s = new Socket("127.0.0.1", server.port());
          OutputStream out = s.getOutputStream();
          out.write(("POST /v2/atomic_write HTTP/1.1\r\nHost: localhost\r\n"
              + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/x-protobuf\r\n"
              + "Content-Length: 100\r\n\r\n0123456789").getBytes(StandardCharsets.US_ASCII));
          out.flush();
          stalled.add(s);
        }
        // Everyone else is served meanwhile.
        kv.set(KvKey.of("served"), "while 300 uploads stall");
        assertThat(kv.get(KvKey.of("served")).value()).isEqualTo("while 300 uploads stall");

        for (Socket s : stalled) {
          s.setSoTimeout(30_000);
          InputStream in = s.getInputStream();
          String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
          assertThat(status).isEqualTo("HTTP/1.1 408");
        }
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
    }
  }
}
