package dev.kvasir.bench;

/**
 * The arguments {@code DIR [--option N]} of the benchmarks that work in one directory and
 * repeat something N times ({@link GetWarmUp}, {@link ListAllocation}). The directory is the
 * first argument as given.
 */
final class DirectoryAndCount {
  private DirectoryAndCount() {}

  /**
   * N from {@code --option N}, or {@code fallback} without it. Anything else, or an N that is
   * not a number of at least 1, prints the usage and exits with status 2.
   */
  static int count(String[] args, String program, String option, int fallback) {
    if (args.length != 1 && !(args.length == 3 && args[1].equals(option))) {
      exitWithUsage(program, option);
    }
    if (args.length == 1) {
      return fallback;
    }
    try {
      int count = Integer.parseInt(args[2]);
      if (count >= 1) {
        return count;
      }
    } catch (NumberFormatException e) {
      // the usage below says what was wanted
    }
    System.err.println(program + ": " + option + " must be a number of at least 1, got "
        + args[2]);
    exitWithUsage(program, option);
    return fallback; // not reached
  }

  private static void exitWithUsage(String program, String option) {
    System.err.println("usage: " + program + " DIR [" + option + " N]");
    System.exit(2);
  }
}
