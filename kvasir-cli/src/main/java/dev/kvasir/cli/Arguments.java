package dev.kvasir.cli;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The command line as the JVM decoded it. Java decodes its arguments in the character set of the
 * locale ({@code sun.jnu.encoding}); in the C or POSIX locale, the default of containers and
 * services without {@code LANG}, that is ASCII, and every other character of a key or value
 * arrives as U+FFFD, whatever bytes the shell passed. A command would then store, or look for,
 * a key that nobody typed (docs/operations.md §2).
 */
final class Arguments {
  private static final char REPLACEMENT = '\uFFFD';

  private Arguments() {}

  /**
   * Why {@code args} cannot be taken as given: an argument holds U+FFFD while the JVM decoded
   * the command line in {@code encoding}, not UTF-8; null when they can.
   */
  static @Nullable String undecodable(String[] args, @Nullable String encoding) {
    if (encoding == null || isUtf8(encoding)) {
      return null; // U+FFFD was then typed on purpose
    }
    for (String arg : args) {
      if (arg.indexOf(REPLACEMENT) >= 0) {
        return "the argument '" + arg + "' lost characters: Java read the command line in "
            + encoding + ", the character set of the locale; run it in a UTF-8 locale, e.g."
            + " LC_ALL=C.UTF-8 (./kvasir and bin/kvasir choose one when the locale is C or"
            + " POSIX)";
      }
    }
    return null;
  }

  private static boolean isUtf8(String encoding) {
    try {
      return Charset.forName(encoding).equals(StandardCharsets.UTF_8);
    } catch (IllegalArgumentException unknown) {
      return false;
    }
  }
}
