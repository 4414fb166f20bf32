package dev.kvasir.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The process's standard output as the commands print to it, flushed at every line, which can
 * also say whether one line reached it. {@code checkError} cannot: it fails as soon as {@link
 * ReaderWatch} has seen the reader go, also when that was just after the line was written, and
 * {@code listen} then gave back a message whose line {@code head -1} had read.
 */
final class StandardOutput extends PrintWriter {
  private final CheckedOutput bytes;

  StandardOutput(CheckedOutput bytes) {
    super(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), true);
    this.bytes = bytes;
  }

  /**
   * Prints {@code line} to {@code out} and says whether all of it was written: to the process's
   * standard output, whether no write of it failed; to any other writer (a test's, the shell's
   * own), whether {@code checkError} stayed false.
   */
  static boolean printLine(PrintWriter out, String line) {
    if (!(out instanceof StandardOutput standard)) {
      out.println(line);
      return !out.checkError();
    }
    synchronized (standard.lock) {
      long failedBefore = standard.bytes.failedWrites();
      standard.println(line);
      return standard.bytes.failedWrites() == failedBefore;
    }
  }
}
