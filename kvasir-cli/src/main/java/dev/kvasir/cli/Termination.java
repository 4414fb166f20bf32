package dev.kvasir.cli;

import java.time.Duration;
import sun.misc.Signal;

/**
 * SIGTERM as a request to stop, not a crash: service managers (systemd, Kubernetes, Docker)
 * send it and expect exit status 0 after a clean stop, while the JVM's default ends with 143.
 * Ctrl-C (SIGINT) stops a command that runs until stopped as cleanly, with the status a shell
 * expects of it, 130. Taken over through {@code sun.misc.Signal} (module {@code
 * jdk.unsupported}), the one JDK API for it.
 */
final class Termination {
  private static final int SIGINT = 2;
  private static final int SIGTERM = 15;
  /** How long a command asked to stop may wait on a write to standard output. */
  private static final Duration BLOCKED_OUTPUT = Duration.ofSeconds(1);
  /** The signal that stopped the command, or 0. */
  private static volatile int stoppedBy;

  private Termination() {}

  /** Runs {@code action} on SIGTERM instead of stopping the JVM; false where that fails. */
  static boolean onSigterm(Runnable action) {
    return handle("TERM", action);
  }

  /**
   * Has SIGINT and SIGTERM stop the command that registered with {@link Kvasir#onInterrupt}
   * (watch, listen, backup, import, export, restore, replicate) as it stops itself, so that it
   * returns and closes its database. The JVM's default ended the process at once: the
   * database stayed open, and the read-only open of a file without a write-ahead log left
   * {@code -wal} and {@code -shm} beside it (docs/sqlite.md §7). Without such a command, and on
   * a second signal, the process ends as under that default (status 128 + the signal's number,
   * shutdown hooks run), and so does a command whose standard output stays blocked after the
   * signal. Where the signal was ignored when the JVM started (a background job of a script),
   * it stays ignored.
   */
  static void stopCommandsOnSignals(CheckedOutput stdout) {
    handle("INT", () -> stop(SIGINT, stdout));
    handle("TERM", () -> stop(SIGTERM, stdout));
  }

  private static void stop(int signal, CheckedOutput stdout) {
    stoppedBy = signal;
    if (!Kvasir.interrupt()) {
      System.exit(128 + signal);
    }
    endIfOutputStaysBlocked(signal, stdout);
  }

  /**
   * A command stops itself at its next line or entry, which it never reaches while its write
   * to standard output waits for a reader that does not read (an export into a pager left
   * open): a blocked write cannot be interrupted, and the command went on waiting. Such a
   * command is ended as a second signal would end it, saying why.
   */
  private static void endIfOutputStaysBlocked(int signal, CheckedOutput stdout) {
    Thread watch = new Thread(() -> {
      try {
        while (!stdout.blockedLongerThan(BLOCKED_OUTPUT)) {
          Thread.sleep(100);
        }
      } catch (InterruptedException e) {
        return;
      }
      System.err.println("kvasir: nothing reads standard output, so the command could not stop"
          + " cleanly: ended, its output incomplete");
      System.exit(128 + signal);
    }, "kvasir-stop-watch");
    watch.setDaemon(true); // the command that stops by itself ends the JVM as it would
    watch.start();
  }

  /**
   * {@code code}, or 130 if Ctrl-C stopped the command: a script sees that it did not end by
   * itself, as with any command a shell's Ctrl-C ends. SIGTERM leaves {@code code}.
   */
  static int exitCode(int code) {
    return stoppedBy == SIGINT && code == 0 ? 128 + SIGINT : code;
  }

  /**
   * The status of a command that a signal stopped before it was done (an import, an export):
   * 128 + the signal's number, as if the signal had ended it. Ctrl-C in {@code kvasir shell},
   * which reaches the command without a signal handler, counts as SIGINT.
   */
  static int unfinishedStatus() {
    return 128 + (stoppedBy == 0 ? SIGINT : stoppedBy);
  }

  /** What stopped the command, for its message: {@code SIGTERM} or {@code Ctrl-C}. */
  static String stopper() {
    return stoppedBy == SIGTERM ? "SIGTERM" : "Ctrl-C";
  }

  private static boolean handle(String name, Runnable action) {
    try {
      Signal.handle(new Signal(name), signal -> action.run());
      return true;
    } catch (IllegalArgumentException e) {
      return false; // no such signal on this platform, or the JVM runs with -Xrs
    }
  }
}
