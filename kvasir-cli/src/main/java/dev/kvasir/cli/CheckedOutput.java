package dev.kvasir.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Locale;

/**
 * An output stream that remembers why a write to it failed. A {@link java.io.PrintWriter} over
 * it only says that one did ({@code checkError}); the commands need to know whether their reader
 * went away (a closed pipe, which ends them quietly) or the output cannot take more (a full
 * disk, which must be an error: the output is cut short).
 */
final class CheckedOutput extends OutputStream {
  private static final long NOT_WRITING = Long.MIN_VALUE;

  private final OutputStream target;
  private volatile IOException failure;
  /** Set once {@link ReaderWatch} saw that nobody reads the output any more. */
  private volatile IOException readerGone;
  /** When the write in progress began ({@link System#nanoTime}), or {@link #NOT_WRITING}. */
  private volatile long writeStarted = NOT_WRITING;
  /** Writes that did not take their bytes. */
  private volatile long failedWrites;

  CheckedOutput(OutputStream target) {
    this.target = target;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    try {
      failIfReaderGone();
      writeStarted = System.nanoTime();
      target.write(bytes, offset, length);
    } catch (IOException e) {
      failedWrites++;
      throw remember(e);
    } finally {
      writeStarted = NOT_WRITING;
    }
  }

  /**
   * How many writes have failed to take their bytes. Unlike a {@link java.io.PrintWriter}'s
   * {@code checkError}, which also fails once {@link #readerGone} was called, this tells whether
   * bytes written <em>before</em> the reader went away reached it.
   */
  long failedWrites() {
    return failedWrites;
  }

  /**
   * Whether a write has been waiting longer than {@code time}: the reader of a pipe does not
   * read (a pager left open, a stalled consumer), and the writing thread cannot be interrupted.
   */
  boolean blockedLongerThan(Duration time) {
    long started = writeStarted;
    return started != NOT_WRITING && System.nanoTime() - started > time.toNanos();
  }

  @Override
  public void flush() throws IOException {
    failIfReaderGone();
    try {
      target.flush();
    } catch (IOException e) {
      throw remember(e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      target.close();
    } catch (IOException e) {
      throw remember(e);
    }
  }

  /**
   * Records that nobody reads the output any more ({@link ReaderWatch}): from now on every write
   * and flush fails as a write to a pipe without a reader fails, so that a command that waits
   * for events sees it in {@code checkError} without having to write first.
   */
  void readerGone() {
    IOException gone = new IOException("Broken pipe: nobody reads standard output any more");
    readerGone = gone;
    remember(gone);
  }

  /** Whether {@link #readerGone} was called. */
  boolean isReaderGone() {
    return readerGone != null;
  }

  private void failIfReaderGone() throws IOException {
    IOException gone = readerGone;
    if (gone != null) {
      throw gone;
    }
  }

  private IOException remember(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  /** The first write that failed, or null if none did. */
  IOException failure() {
    return failure;
  }

  /**
   * Whether the output failed for a reason other than its reader having gone away: a full
   * disk ({@code No space left on device}), an I/O error, a closed descriptor.
   */
  boolean failedOtherThanByAClosedPipe() {
    return failure != null && !isClosedPipe(failure);
  }

  /**
   * Whether {@code e} says the reader closed the pipe. The JDK reports only the system's text
   * for the error: "Broken pipe" (EPIPE) on Linux and macOS, "The pipe is being closed" and
   * "The pipe has been ended" on Windows; glibc's translations keep the word ("Relais brisé
   * (pipe)").
   */
  static boolean isClosedPipe(IOException e) {
    String message = e.getMessage();
    return message != null && message.toLowerCase(Locale.ROOT).contains("pipe");
  }
}
