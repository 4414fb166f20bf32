package dev.kvasir.cli;

import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import picocli.CommandLine.Option;

/** {@code --check VERSIONSTAMP|none}: the condition of a check-and-set. */
final class CheckOption {
  @Option(names = "--check", paramLabel = "VERSIONSTAMP|none",
      description = "Only if the key's versionstamp is this one (none: only if it does not"
          + " exist); otherwise nothing changes and the exit code is 1.")
  String expected;

  boolean present() {
    return expected != null;
  }

  /** What was found instead of what was expected, for the failure message. */
  String describe() {
    return expected.equals("none") ? "exists" : "is not at versionstamp " + expected;
  }

  /** Refuses a --check that is neither a versionstamp nor none, before anything is opened. */
  void validate() {
    if (present()) {
      versionstamp();
    }
  }

  Versionstamp versionstamp() {
    if (expected.equals("none")) {
      return null;
    }
    try {
      return Versionstamp.parse(expected);
    } catch (KvException e) {
      throw new IllegalArgumentException("--check takes a 20-digit hex versionstamp (as get"
          + " --json prints) or none, not '" + expected + "'");
    }
  }
}
