package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.WatchStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvasir watch KEY...}. */
@Command(name = "watch", mixinStandardHelpOptions = true,
    description = {"Print the entries at the keys now and again whenever one of them changes,"
        + " until Ctrl-C or SIGTERM, or until nobody reads the output.",
        "Each emission is a block of KEY VALUE VERSIONSTAMP rows ended by '--', or one JSON"
            + " array per line with --json."},
    footer = {"", "Examples:",
        "  kvasir watch '[\"config\"]'",
        "  kvasir watch '[\"a\"]' '[\"b\"]' --json --count 3"})
final class WatchCommand extends DbCommand {
  @Parameters(paramLabel = "KEY", arity = "1..10", description = "Up to 10 keys.")
  List<KvKey> keys;

  @Option(names = "--json", description = "One JSON array of entries per emission.")
  boolean json;

  @Option(names = "--count", paramLabel = "N", description = "Stop after this many emissions.")
  Integer count;

  @Override
  void checkArguments() {
    atMostKeys(keys, Limits.MAX_WATCHED_KEYS, "watch");
    positive("--count", count);
  }

  @Override
  int run(Kv kv) {
    try (WatchStream stream = kv.watch(keys);
        Kvasir.Interruption stop = Kvasir.untilStopped(stream::close)) {
      int emitted = 0;
      for (List<KvEntry> entries : stream) {
        print(entries);
        if (out().checkError()) {
          return Kvasir.PIPE_CLOSED; // nobody reads any more
        }
        if (count != null && ++emitted >= count) {
          break;
        }
      }
    }
    return out().checkError() ? Kvasir.PIPE_CLOSED : 0;
  }

  private void print(List<KvEntry> entries) {
    if (json) {
      ArrayNode array = Render.JSON.createArrayNode();
      entries.forEach(e -> array.add(Render.entryJson(e)));
      out().println(Render.text(array));
    } else {
      Render.Table table = new Render.Table(out());
      for (KvEntry e : entries) {
        table.add(KeySyntax.format(e.key()), e.exists() ? Render.value(e, false) : "(none)",
            e.exists() ? e.versionstamp().toString() : "");
      }
      table.flush();
      out().println("--");
    }
    out().flush();
  }
}
