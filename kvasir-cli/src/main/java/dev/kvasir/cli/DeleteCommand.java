package dev.kvasir.cli;

import dev.kvasir.AtomicOperation;
import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvasir delete KEY...}. */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Delete the entries at the keys, in one atomic commit (a missing key is not"
        + " an error).",
    footer = {"", "Examples:",
        "  kvasir delete '[\"users\", \"alice\"]'",
        "  kvasir delete '[\"a\"]' '[\"b\"]'",
        "  kvasir delete '[\"lock\"]' --check 000000000000000a0000"})
final class DeleteCommand extends DbCommand {
  @Parameters(paramLabel = "KEY", arity = "1..*", description = "One key or more.")
  List<KvKey> keys;

  @Mixin CheckOption check;

  @Option(names = "--json", description = "Print {\"ok\":true,\"versionstamp\":\"…\"} (as Deno's"
      + " commit result); without it delete prints nothing.")
  boolean json;

  @Override
  boolean writes() {
    return true;
  }

  @Override
  void checkArguments() {
    atMostKeys(keys, Limits.MAX_MUTATIONS, "delete");
    keys.forEach(Limits::checkWriteKey); // before a missing database is created, as set checks
    if (check.present() && keys.size() != 1) {
      throw new IllegalArgumentException("--check works with exactly one KEY");
    }
    check.validate();
  }

  @Override
  int run(Kv kv) {
    AtomicOperation op = kv.atomic();
    if (check.present()) {
      op.check(keys.get(0), check.versionstamp());
    }
    keys.forEach(op::delete);
    CommitResult r = op.commit();
    if (!r.ok()) {
      throw new Failure("the check failed: " + KeySyntax.format(keys.get(0)) + " "
          + check.describe() + "; nothing was deleted");
    }
    if (json) {
      out().println(Render.commitJson(r));
    }
    return 0;
  }
}
