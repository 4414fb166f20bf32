package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kvasir count}. */
@Command(name = "count", mixinStandardHelpOptions = true,
    description = "Count the entries a listing would print (streamed; values are not decoded).",
    footer = {"", "Examples:",
        "  kvasir count",
        "  kvasir count '[\"users\"]'"})
final class CountCommand extends DbCommand {
  @Mixin Selection selection;

  @Option(names = "--json", description = "Print {\"count\":N}.")
  boolean json;

  @Override
  void checkArguments() {
    selection.check();
  }

  @Override
  int run(Kv kv) {
    KvListIterator entries = kv.list(selection.selector(), ListOptions.defaults()
        .batchSize(500));
    long[] count = {0};
    Listing listing = new Listing(out(), err());
    listing.walk(entries, e -> count[0]++);
    out().println(json ? "{\"count\":" + count[0] + "}" : String.valueOf(count[0]));
    return listing.exitCode(false);
  }
}
