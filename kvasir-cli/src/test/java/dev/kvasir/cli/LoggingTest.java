package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoggingTest {
  /**
   * The PostgreSQL driver logs through {@code java.util.logging}; its own handler wrote "Nov 28,
   * 2026 3:09:06 AM org.postgresql.ssl…" and "SEVERE: …" between the server's JSON lines.
   */
  @Test
  void javaUtilLogging_reachesLogback_atTheChosenLevel() {
    Logging.configure("warn", "json");
    try (CapturedLog log = new CapturedLog(LoggingTest.class)) {
      java.util.logging.Logger jul =
          java.util.logging.Logger.getLogger(LoggingTest.class.getName());
      jul.severe("the driver's error");
      jul.info("below the level");
      assertThat(log.lines()).containsExactly("ERROR the driver's error");
    }
    Logging.configure("info", "text");
    try (CapturedLog log = new CapturedLog(LoggingTest.class)) {
      java.util.logging.Logger.getLogger(LoggingTest.class.getName()).info("now shown");
      assertThat(log.lines()).containsExactly("INFO now shown");
    }
    Logging.configure("warn", "text");
  }
}
