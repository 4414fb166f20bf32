package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.KvKey;
import dev.kvasir.dag.engine.DagLocation;
import dev.kvasir.dag.engine.KeyspaceDiff;
import dev.kvasir.spi.StoredEntry;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kvasir diff}: the keys that changed between two states of a KV/DAG database. */
@Command(name = "diff", mixinStandardHelpOptions = true,
    description = {"List the keys that differ between two states of a KV/DAG database or"
        + " backup, ascending: '+' added, '-' removed, '~' changed, with the versionstamps"
        + " before and after. Shards equal in both states are skipped whole.",
        "States are named as --at names them: an ISO-8601 time, a versionstamp or a commit"
            + " CID."},
    footer = {"", "Examples:",
        "  kvasir diff --db dag:./backup --from 2026-11-23T10:00:00Z --to 2026-11-23T11:00:00Z",
        "  kvasir diff --db dag:./data --from 00000000000000010000 --json"})
final class DiffCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--db", required = true, paramLabel = "dag:DIR",
      description = "The KV/DAG database or backup.")
  String db;

  @Option(names = "--from", required = true, paramLabel = "WHEN",
      description = "The state the changes are from.")
  String from;

  @Option(names = "--to", paramLabel = "WHEN",
      description = "The state the changes lead to. Default: the newest.")
  String to;

  @Option(names = "--json", description = "One JSON object per changed key.")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    OutputWatch output = new OutputWatch(out);
    long[] printed = {0};
    // Printed as the walk finds them: a diff of many keys held them all, and the shards it
    // read, before its first line, and a reader that went away waited for the end.
    boolean whole = KeyspaceDiff.between(DagLocation.directory(db), from, to, c -> {
      print(out, c);
      printed[0]++;
      return output.wrote();
    });
    if (!whole || output.closed()) {
      return Kvasir.PIPE_CLOSED;
    }
    spec.commandLine().getErr().println(printed[0] + " keys differ");
    return 0;
  }

  private void print(PrintWriter out, KeyspaceDiff.Change c) {
    KvKey key = KvKey.decode(c.key().bytes());
    if (json) {
      ObjectNode line = Render.JSON.createObjectNode();
      line.set("key", Render.keyJson(key)); // as list --json and export write a key
      line.put("change", c.before() == null ? "added" : c.after() == null ? "removed"
          : "changed");
      line.set("before", state(c.before()));
      line.set("after", state(c.after()));
      out.println(Render.text(line));
    } else {
      out.println((c.before() == null ? "+ " : c.after() == null ? "- " : "~ ")
          + KeySyntax.format(key) + "  "
          + stamp(c.before()) + " -> " + stamp(c.after()));
    }
  }

  private static String stamp(StoredEntry e) {
    return e == null ? "(none)" : e.versionstamp().toString();
  }

  private static ObjectNode state(StoredEntry e) {
    if (e == null) {
      return null;
    }
    ObjectNode node = Render.JSON.createObjectNode();
    node.put("versionstamp", e.versionstamp().toString());
    if (e.expireAtMs() != StoredEntry.NEVER) {
      node.put("expiresAt", java.time.Instant.ofEpochMilli(e.expireAtMs()).toString());
    }
    return node;
  }
}
