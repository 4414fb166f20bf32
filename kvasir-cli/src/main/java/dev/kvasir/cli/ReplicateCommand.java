package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.dag.engine.DagLocation;
import dev.kvasir.dag.engine.Replication;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kvasir replicate}: verified replication of a KV/DAG database (docs/backup.md §4). */
@Command(name = "replicate", mixinStandardHelpOptions = true,
    description = {"Bring a KV/DAG database up to another: the commits it lacks, each with"
        + " only the blocks it does not have, every block checked against its hash. A damaged"
        + " or truncated source is refused, naming the block, and the target stays at its last"
        + " whole commit; SIGTERM or Ctrl-C leave it so too.",
        "SOURCE and TARGET are dag:DIR or a .car file (the whole history, rooted at the newest"
            + " commit). A server can serve a replica as it grows: kvasir serve --db"
            + " dag:DIR --read-only."},
    footer = {"", "Examples:",
        "  kvasir replicate dag:./primary dag:./replica",
        "  kvasir replicate dag:./primary history.car",
        "  kvasir replicate history.car dag:./replica"})
final class ReplicateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SOURCE", description = "dag:DIR or FILE.car.")
  String source;
  @Parameters(index = "1", paramLabel = "TARGET", description = "dag:DIR or FILE.car.")
  String target;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    AtomicBoolean stop = new AtomicBoolean();
    Replication.Result result;
    try (Kvasir.Interruption signals = Kvasir.onInterrupt(() -> stop.set(true))) {
      result = replicate(stop::get);
    } catch (CancellationException e) {
      spec.commandLine().getErr().println("replicate stopped by " + Termination.stopper()
          + " before it was complete: " + leftAt());
      return Termination.unfinishedStatus();
    }
    ObjectNode out = Render.JSON.createObjectNode();
    out.put("commits", result.commits());
    out.put("blocks", result.blocks());
    out.put("bytes", result.bytes());
    out.put("head", result.head() == null ? null : result.head().toString());
    if (json) {
      spec.commandLine().getOut().println(Render.text(out));
    } else {
      spec.commandLine().getOut().println("sent " + result.commits() + " commits, "
          + result.blocks() + " blocks, " + result.bytes() + " bytes; " + target + " is at "
          + result.head());
    }
    return 0;
  }

  private Replication.Result replicate(BooleanSupplier stop) throws IOException {
    if (isCar(source) && isCar(target)) {
      throw new IllegalArgumentException("one of SOURCE and TARGET must be a dag:DIR");
    } else if (isCar(target)) {
      return FileMoves.writeAside(Path.of(target), spec.commandLine().getErr(), partial -> {
        try (OutputStream out = Files.newOutputStream(partial)) {
          return Replication.toCar(DagLocation.directory(source), out, stop);
        }
      });
    } else if (isCar(source)) {
      try (InputStream in = Files.newInputStream(Path.of(source))) {
        return Replication.fromCar(in, DagLocation.directory(target), stop);
      }
    }
    return Replication.replicate(DagLocation.directory(source), DagLocation.directory(target),
        stop);
  }

  /** Where a stopped replication left the target (Replication removes one it made in vain). */
  private String leftAt() {
    if (isCar(target)) {
      return target + " is as it was";
    }
    if (Files.notExists(DagLocation.directory(target))) {
      return "nothing was replicated to " + target;
    }
    return target + " keeps the commits that arrived whole; run it again to go on";
  }

  private static boolean isCar(String location) {
    return !DagLocation.matches(location) && location.endsWith(".car");
  }
}
