package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kvasir list}. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = {"List entries in key order: KEY, VALUE and VERSIONSTAMP columns, or one JSON"
        + " object per line with --json.",
        "With --limit, the cursor to continue from is printed on standard error."},
    footer = {"", "Examples:",
        "  kvasir list",
        "  kvasir list '[\"users\"]'",
        "  kvasir list --prefix '[\"users\"]' --limit 10",
        "  kvasir list --prefix '[\"users\"]' --limit 10 --cursor AmJvYgA=",
        "  kvasir list --start '[\"logs\", 100]' --end '[\"logs\", 200]' --reverse --json"})
final class ListCommand extends DbCommand {
  @Mixin Selection selection;

  @Option(names = "--limit", paramLabel = "N", description = "At most this many entries.")
  Integer limit;

  @Option(names = "--reverse", description = "Largest key first.")
  boolean reverse;

  @Option(names = "--cursor", paramLabel = "CURSOR",
      description = "Continue after a previous listing's cursor.")
  String cursor;

  @Option(names = "--json", description = "One JSON object per line (NDJSON).")
  boolean json;

  @Override
  void checkArguments() {
    selection.check();
    positive("--limit", limit);
  }

  @Override
  int run(Kv kv) {
    ListOptions options = ListOptions.defaults().reverse(reverse);
    if (limit != null) {
      options = options.limit(limit);
    }
    if (cursor != null) {
      options = options.cursor(cursor);
    }
    KvListIterator entries = kv.list(selection.selector(), options);
    Render.Table table = new Render.Table(out());
    Listing listing = new Listing(out(), err());
    int[] count = {0};
    listing.walk(entries, e -> {
      if (json) {
        out().println(Render.text(Render.entryJson(e)));
      } else {
        table.add(KeySyntax.format(e.key()), Render.value(e, false),
            e.versionstamp().toString());
      }
      count[0]++;
    });
    table.flush();
    if (limit != null && count[0] + listing.corrupt() == limit && !listing.outputClosed()) {
      err().println("more may follow: --cursor " + entries.cursor());
    }
    return listing.exitCode(false);
  }
}
