package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.base.KvOptions;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A queue listener in a process of its own, for {@code QueueThroughServeIT}: it listens
 * through a {@code kvasir serve} URL and appends one line per delivery to its file, {@code
 * handled N} or {@code failed N}. Messages {@code {n, poison: true}} always fail. With a hang
 * count it handles that many messages, then takes one more that is not poison and never
 * finishes it (the test kills it with SIGKILL). Arguments: URL TOKEN FILE [HANG_AFTER].
 */
public final class QueueClient {
  private QueueClient() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String token = args[1];
    Path file = Path.of(args[2]);
    int hangAfter = args.length > 3 ? Integer.parseInt(args[3]) : Integer.MAX_VALUE;
    int[] handled = {0};
    try (OutputStream out = new FileOutputStream(file.toFile(), true);
        Kv kv = Kv.open(url, KvOptions.defaults().with("accessToken", token))) {
      kv.listenQueue(message -> {
        Map<?, ?> m = (Map<?, ?>) message;
        long n = ((Number) m.get("n")).longValue();
        boolean poison = Boolean.TRUE.equals(m.get("poison"));
        // Never on a poison message: the test expects the one it hung on handled elsewhere.
        if (!poison && handled[0]++ == hangAfter) {
          line(out, "hung " + n);
          new CountDownLatch(1).await(); // until killed
        }
        if (poison) {
          line(out, "failed " + n);
          throw new IllegalStateException("poison " + n + " (expected)");
        }
        line(out, "handled " + n);
      });
      line(out, "listening");
      new CountDownLatch(1).await(); // until the test stops it
    }
  }

  private static synchronized void line(OutputStream out, String text) throws IOException {
    out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
