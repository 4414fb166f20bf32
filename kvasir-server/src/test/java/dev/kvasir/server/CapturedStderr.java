package dev.kvasir.server;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * What is written to standard error while a test runs, SLF4J's simple log among it (it looks
 * {@code System.err} up for each line); closing puts the previous stream back.
 */
final class CapturedStderr implements AutoCloseable {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream previous = System.err;

  CapturedStderr() {
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
  }

  /** Everything written so far. */
  String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Waits up to 20 s until what was written satisfies {@code logged}; fails showing it. */
  void await(Predicate<String> logged) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!logged.test(text())) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("not logged within 20 s; the log: " + text());
      }
      Thread.sleep(20);
    }
  }

  @Override
  public void close() {
    System.setErr(previous);
  }
}
