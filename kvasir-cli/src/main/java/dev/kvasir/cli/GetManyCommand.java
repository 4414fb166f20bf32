package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvasir get-many KEY...}. */
@Command(name = "get-many", mixinStandardHelpOptions = true,
    description = "Read several keys in one consistent snapshot; missing keys print as"
        + " (none).",
    footer = {"", "Examples:",
        "  kvasir get-many '[\"users\", \"alice\"]' '[\"users\", \"bob\"]'",
        "  kvasir get-many '[\"a\"]' '[\"b\"]' --json"})
final class GetManyCommand extends DbCommand {
  @Parameters(paramLabel = "KEY", arity = "1..10", description = "Up to 10 keys.")
  List<KvKey> keys;

  @Option(names = "--json", description = "One JSON object per key (value and versionstamp"
      + " null when missing).")
  boolean json;

  @Override
  void checkArguments() {
    atMostKeys(keys, Limits.MAX_READ_RANGES, "get-many");
  }

  @Override
  int run(Kv kv) {
    Render.Table table = new Render.Table(out());
    for (KvEntry e : kv.getMany(keys)) {
      if (json) {
        out().println(Render.text(Render.entryJson(e)));
      } else {
        table.add(KeySyntax.format(e.key()), e.exists() ? Render.value(e, false) : "(none)");
      }
    }
    table.flush();
    return 0;
  }
}
