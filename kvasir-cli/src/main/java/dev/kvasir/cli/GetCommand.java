package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.base.Consistency;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvasir get KEY}. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = {"Print the value at KEY (exit code 1 if there is none).",
        "Values print as JSON; types JSON lacks are tagged, e.g. {\"$bigint\":\"7\"}."},
    footer = {"", "Examples:",
        "  kvasir get '[\"users\", \"alice\"]'",
        "  kvasir get '[\"counter\"]' --json",
        "  kvasir get '[\"blob\", 1]' --raw --db data.sqlite3"})
final class GetCommand extends DbCommand {
  @Parameters(paramLabel = "KEY", description = "e.g. '[\"users\", \"alice\"]'")
  KvKey key;

  @Option(names = "--json", description = "Print {\"key\",\"value\",\"versionstamp\"} as JSON;"
      + " value and versionstamp null when there is no entry, as Deno's get answers.")
  boolean json;

  @Option(names = "--raw", description = "Print the stored bytes as hex (V8 format for JS"
      + " values).")
  boolean raw;

  @Option(names = "--eventual", description = "Allow an eventually consistent read.")
  boolean eventual;

  @Override
  int run(Kv kv) {
    KvEntry e = kv.get(key, eventual ? Consistency.EVENTUAL : Consistency.STRONG);
    if (!e.exists()) {
      if (json) { // a script reading the output gets an answer, as from get-many
        out().println(Render.text(Render.entryJson(e)));
      }
      throw new Failure("no entry at " + KeySyntax.format(key));
    }
    out().println(json ? Render.text(Render.entryJson(e)) : Render.value(e, raw));
    return 0;
  }
}
