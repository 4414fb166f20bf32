package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A warning a fault repeats goes out once per interval, saying how many were left out. */
class ThrottledWarningTest {
  @Test
  void repeats_withinTheInterval_areCounted_andReportedWithTheNextOne() throws Exception {
    String logged;
    try (CapturedStderr stderr = new CapturedStderr()) {
      ThrottledWarning warning = new ThrottledWarning(
          LoggerFactory.getLogger(ThrottledWarningTest.class), Duration.ofSeconds(1));
      for (int i = 0; i < 5; i++) {
        warning.warn("{} failed: {}", "/v2/atomic_write", "the disk is full " + i);
      }
      Thread.sleep(1_100); // the interval is long enough for a slow machine to warn 5 times in it
      warning.warn("{} failed: {}", "/v2/snapshot_read", "the disk is full again");
      logged = stderr.text();
    }
    assertThat(logged.lines()
        .filter(l -> l.contains("failed:")))
        .containsExactly(
            lineOf("/v2/atomic_write failed: the disk is full 0"),
            lineOf("/v2/snapshot_read failed: the disk is full again (4 more since the last"
                + " such warning were not logged)"));
  }

  private static String lineOf(String message) {
    return "[main] WARN " + ThrottledWarningTest.class.getName() + " - " + message;
  }
}
