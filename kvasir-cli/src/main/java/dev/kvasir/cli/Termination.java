package dev.kvasir.cli;

import sun.misc.Signal;

/**
 * SIGTERM as a request to stop, not a crash: service managers (systemd, Kubernetes, Docker)
 * send it and expect exit status 0 after a clean stop, while the JVM's default ends with 143.
 * Taken over through {@code sun.misc.Signal} (module {@code jdk.unsupported}), the one JDK API
 * for it.
 */
final class Termination {
  private Termination() {}

  /** Runs {@code action} on SIGTERM instead of stopping the JVM; false where that fails. */
  static boolean onSigterm(Runnable action) {
    try {
      Signal.handle(new Signal("TERM"), signal -> action.run());
      return true;
    } catch (IllegalArgumentException e) {
      return false; // no SIGTERM on this platform, or the JVM runs with -Xrs
    }
  }
}
