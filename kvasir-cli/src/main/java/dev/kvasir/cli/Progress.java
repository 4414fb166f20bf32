package dev.kvasir.cli;

import java.io.PrintWriter;

/**
 * A one-line progress display on standard error, redrawn at most ten times a second; silent
 * unless enabled (on a terminal, not in pipes).
 */
final class Progress implements AutoCloseable {
  private final PrintWriter err;
  private final boolean enabled;
  private final String verb;
  private final long totalBytes;
  private long lastDraw;
  private long entries;
  private long bytes;

  /** {@code totalBytes} 0 when the size is unknown. */
  Progress(PrintWriter err, boolean enabled, String verb, long totalBytes) {
    this.err = err;
    this.enabled = enabled;
    this.verb = verb;
    this.totalBytes = totalBytes;
  }

  void update(long entries, long bytes) {
    this.entries = entries;
    this.bytes = bytes;
    long now = System.nanoTime();
    if (enabled && now - lastDraw > 100_000_000L) {
      lastDraw = now;
      draw();
    }
  }

  /**
   * Marks the whole input read: the last line shows 100%. Without it, it shows how far an
   * import that failed or was stopped got.
   */
  void complete() {
    bytes = totalBytes;
  }

  private void draw() {
    StringBuilder line = new StringBuilder("\r").append(verb).append(' ')
        .append(String.format("%,d", entries)).append(" entries");
    if (totalBytes > 0) {
      int percent = (int) Math.min(100, bytes * 100 / totalBytes);
      int filled = percent / 5;
      line.append(" [").append("#".repeat(filled)).append(" ".repeat(20 - filled)).append("] ")
          .append(percent).append('%');
    }
    err.print(line);
    err.flush();
  }

  @Override
  public void close() {
    if (enabled) {
      draw();
      err.println();
      err.flush();
    }
  }
}
