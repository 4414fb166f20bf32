package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --timeout} against a server that accepts connections and never answers (a stopped
 * process looks like that): the command gives up after it with exit 3, instead of waiting out
 * every retry's time limit.
 */
class RemoteTimeoutTest {
  private static final String TOKEN = "timeout-test-token-0123";

  private static int run(StringWriter err, String... args) {
    return Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(err)).execute(args);
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a regression hangs
  void aServerThatNeverAnswers_isGivenUpAfterTheTimeout_withExit3() throws Exception {
    // The kernel completes connections to a listening socket nobody accepts from.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      StringWriter err = new StringWriter();
      int status = run(err, "get", "[\"a\"]", "--db",
          "http://127.0.0.1:" + silent.getLocalPort(), "--access-token", TOKEN,
          "--timeout", "1s");
      assertThat(status).isEqualTo(Kvasir.DATABASE_ERROR);
      // Named as the user gave it, not by the Java client's option (remote.deadlineMs).
      assertThat(err.toString()).contains("(--timeout reached)").doesNotContain("deadlineMs");
    }
  }

  @Test
  void aTimeoutOfZero_isAUsageError() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "get", "[\"a\"]", "--db", "http://127.0.0.1:1", "--access-token", TOKEN,
        "--timeout", "0")).isEqualTo(Kvasir.USAGE);
    assertThat(err.toString()).contains("--timeout must be positive");
  }
}
