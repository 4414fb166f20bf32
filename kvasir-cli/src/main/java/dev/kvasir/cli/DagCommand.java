package dev.kvasir.cli;

import dev.kvasir.dag.PailOptions;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvasir dag}: a content-addressed key/value map (pail 0.3.4 format) on disk. */
@Command(name = "dag", mixinStandardHelpOptions = true,
    description = {"Work with a KV/DAG pail: a key/value map stored as DAG-CBOR shards,"
        + " with the same root CIDs as the JavaScript @alanshaw/pail 0.3.4.",
        "", "The store (--store) is a directory (blocks/ and ROOT) or a .car file."},
    subcommands = {DagCommands.Put.class, DagCommands.Get.class, DagCommands.Del.class,
        DagCommands.Ls.class, DagCommands.Tree.class, DagCommands.Diff.class,
        DagCommands.Import.class, DagCommands.Export.class, DagCommands.Root.class},
    footer = {"", "Examples:", "  kvasir dag --store ./pail put fruit/apple red",
        "  kvasir dag --store ./pail ls --prefix fruit/",
        "  kvasir dag --store ./pail export pail.car"})
final class DagCommand {
  @Option(names = "--store", defaultValue = "./pail", paramLabel = "PATH",
      description = "A store directory, or a .car file (default: ${DEFAULT-VALUE}).")
  Path store;

  @Option(names = "--max-shard-size", defaultValue = "524288", paramLabel = "BYTES",
      description = "Split shards above this size (default: ${DEFAULT-VALUE}).")
  int maxShardSize;

  @Option(names = "--one-split-per-put", description = "Shard exactly like pail 0.3.4"
      + " (one split per put, shards may stay above the limit).")
  boolean oneSplitPerPut;

  PailOptions options() {
    if (maxShardSize < 1) { // PailOptions would say so by its own name, maxShardSize
      throw new IllegalArgumentException("--max-shard-size must be positive, not "
          + maxShardSize);
    }
    return PailOptions.defaults().withMaxShardSize(maxShardSize)
        .withOneSplitPerPut(oneSplitPerPut);
  }
}
