package dev.kvasir.cli;

import java.io.PrintWriter;

/**
 * Whether standard output was closed (the reader of a pipe went away, as {@code head} does),
 * looked at every {@link #EVERY} lines: {@link PrintWriter#checkError} flushes, so a look at
 * every line would cost a write to a file. A command that prints many lines stops within
 * that many once nobody reads them.
 */
final class OutputWatch {
  /** How many lines go out between two looks. */
  static final int EVERY = 64;

  private final PrintWriter out;
  private int since;
  private boolean closed;

  OutputWatch(PrintWriter out) {
    this.out = out;
  }

  /**
   * Counts one more line; every {@link #EVERY} lines looks whether the output was closed.
   *
   * @return false once it was found closed
   */
  boolean wrote() {
    if (++since == EVERY) {
      since = 0;
      closed = out.checkError();
    }
    return !closed;
  }

  /** Whether the output was closed, looked at once more now: a reader may go away at the end. */
  boolean closed() {
    closed = closed || out.checkError();
    return closed;
  }
}
