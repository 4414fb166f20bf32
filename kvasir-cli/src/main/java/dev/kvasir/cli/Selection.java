package dev.kvasir.cli;

import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import picocli.CommandLine.Option;

/** {@code --prefix}, {@code --start}, {@code --end}: which keys a listing covers. */
final class Selection {
  @Option(names = "--prefix", paramLabel = "KEY",
      description = "Keys under this prefix (default: every key).")
  KvKey prefix;

  @Option(names = "--start", paramLabel = "KEY", description = "From this key (inclusive).")
  KvKey start;

  @Option(names = "--end", paramLabel = "KEY", description = "Up to this key (exclusive).")
  KvKey end;

  /**
   * The selector, as Deno allows it: a prefix, a prefix with a start or an end, or a start and
   * an end.
   */
  ListSelector selector() {
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
