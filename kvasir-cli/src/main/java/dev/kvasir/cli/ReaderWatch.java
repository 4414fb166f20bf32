package dev.kvasir.cli;

import java.io.FileDescriptor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a command that waits for events ({@code watch}, {@code listen}, {@code backup}) as soon
 * as nobody reads its standard output, as when {@code head -1} has had its line. A write is how
 * the other commands learn it, and such a command may not write again for hours; until then it
 * held its database open and, for {@code listen}, took the next message only to give it back.
 *
 * <p>One daemon thread waits in {@code poll(2)} on descriptor 1 for no event at all, which
 * Linux ends with {@code POLLERR} once a pipe has no reader left (and a socket with {@code
 * POLLHUP} or {@code POLLERR}); a file or {@code /dev/null} never ends it. Java 17 has no public
 * way to poll a descriptor, so this calls the JDK's own wrapper, {@code sun.nio.ch.Net.poll},
 * which the jar's manifest ({@code Add-Opens}) and the distribution's script open to it.
 * Without that, or on another system, commands learn it at their next write as before
 * (docs/operations.md §3).
 */
final class ReaderWatch {
  private static final Logger log = LoggerFactory.getLogger(ReaderWatch.class);
  /** Linux's {@code poll.h}: an error (a pipe without readers), a hang-up, no descriptor. */
  private static final int POLLERR = 0x8;
  private static final int POLLHUP = 0x10;
  private static final int POLLNVAL = 0x20;

  private static final AtomicReference<Runnable> ON_READER_GONE = new AtomicReference<>();
  /** The process's standard output, once {@link Kvasir#main} has it; null in tests in-process. */
  private static CheckedOutput stdout;
  private static boolean started;

  private ReaderWatch() {}

  /** Names the process's standard output, to be watched once a command asks for it. */
  static synchronized void watch(CheckedOutput processStdout) {
    stdout = processStdout;
  }

  /**
   * Runs {@code action} (what stops the command, as on Ctrl-C) once nobody reads standard
   * output; the command then finds {@code checkError} true and exits with {@link
   * Kvasir#PIPE_CLOSED}. The first call starts the watch.
   */
  static Kvasir.Interruption onReaderGone(Runnable action) {
    ON_READER_GONE.set(action);
    CheckedOutput output = start();
    if (output != null && output.isReaderGone()) {
      readerGone(); // gone before this command asked
    }
    return () -> ON_READER_GONE.compareAndSet(action, null);
  }

  private static synchronized CheckedOutput start() {
    if (started || stdout == null) {
      return stdout;
    }
    started = true;
    Method poll = pollMethod();
    if (poll != null) {
      Thread thread = new Thread(() -> waitForNoReader(poll, stdout), "kvasir-reader-watch");
      thread.setDaemon(true); // a poll cannot be interrupted; it must not keep the JVM alive
      thread.start();
    }
    return stdout;
  }

  /** The JDK's {@code Net.poll(FileDescriptor, int events, long timeoutMillis)}, or null. */
  private static Method pollMethod() {
    if (!"Linux".equals(System.getProperty("os.name"))) {
      return null; // what poll(2) reports for a pipe without readers is Linux's, tested there
    }
    try {
      Method poll = Class.forName("sun.nio.ch.Net")
          .getDeclaredMethod("poll", FileDescriptor.class, int.class, long.class);
      poll.setAccessible(true);
      return poll;
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.debug("cannot watch standard output for its reader going away: {}", e.toString());
      return null;
    }
  }

  private static void waitForNoReader(Method poll, CheckedOutput output) {
    try {
      while (true) {
        int events = (int) poll.invoke(null, FileDescriptor.out, 0, -1L);
        if ((events & POLLNVAL) != 0) {
          return; // no descriptor 1 (>&-): writes fail and say why
        }
        if ((events & (POLLERR | POLLHUP)) != 0) {
          output.readerGone();
          readerGone();
          return;
        }
        // 0: a signal interrupted the wait
      }
    } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
      log.debug("stopped watching standard output: {}", e.toString());
    }
  }

  private static void readerGone() {
    Runnable action = ON_READER_GONE.getAndSet(null);
    if (action != null) {
      action.run();
    }
  }
}
