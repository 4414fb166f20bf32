package dev.kvasir.cli;

import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code --prefix} (or the prefix alone), {@code --start}, {@code --end}: which keys a listing
 * covers.
 */
final class Selection {
  @Option(names = "--prefix", paramLabel = "KEY",
      description = "Keys under this prefix (default: every key).")
  KvKey prefix;

  /**
   * The prefix given without its option, as people type it first: {@code list '["users"]'}.
   * Parsed after picocli's parsing, not by it: else the value of a mistyped option ({@code
   * --limt 3}) failed here as a key, and the error did not name the option.
   */
  @Parameters(arity = "0..1", paramLabel = "PREFIX",
      description = "The same as --prefix PREFIX.")
  String positionalPrefix;

  @Option(names = "--start", paramLabel = "KEY", description = "From this key (inclusive).")
  KvKey start;

  @Option(names = "--end", paramLabel = "KEY", description = "Up to this key (exclusive).")
  KvKey end;

  /** Refuses a selection Deno would not list, before the database is opened. */
  void check() {
    selector();
  }

  /**
   * The selector, as Deno allows it: a prefix, a prefix with a start or an end, or a start and
   * an end.
   */
  ListSelector selector() {
    if (positionalPrefix != null) {
      KvKey given = KeySyntax.parse(positionalPrefix);
      if (prefix != null && !prefix.equals(given)) {
        throw new IllegalArgumentException("two prefixes, " + given + " and --prefix " + prefix
            + "; give one");
      }
      prefix = given;
    }
    if (start != null && end != null) {
      if (prefix != null) {
        throw new IllegalArgumentException("--prefix goes with --start or --end, not both (as in"
            + " Deno); use --start and --end alone for a range");
      }
      return ListSelector.range(start, end);
    }
    // A start or an end alone lies within the prefix, the empty one by default.
    ListSelector selector = ListSelector.prefix(prefix == null ? KvKey.of() : prefix);
    return start != null ? selector.withStart(start) : end != null ? selector.withEnd(end)
        : selector;
  }
}
