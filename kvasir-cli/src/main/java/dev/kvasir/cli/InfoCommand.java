package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.engine.DagEngine;
import dev.kvasir.dag.engine.Fingerprint;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.QueueDepth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvasir info}. */
@Command(name = "info", mixinStandardHelpOptions = true,
    description = {"Describe the database: engine, location, size on disk, number of entries,"
        + " the newest versionstamp among them and the state's fingerprint: the root CID of"
        + " its keyspace as a KV/DAG pail, equal for equal contents on every engine; and its"
        + " queue: messages due (and how long the oldest has waited), due later, and being"
        + " delivered.",
        "Counting reads every key, so it takes a while on a large database."},
    footer = {"", "Examples:", "  kvasir info", "  kvasir info --db http://127.0.0.1:4512 --json"})
final class InfoCommand extends DbCommand {
  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Override
  int run(Kv kv) throws IOException {
    long[] entries = {0};
    Versionstamp[] newest = {null};
    Listing listing = new Listing(out(), err());
    listing.walk(kv.list(ListSelector.prefix(KvKey.of()), ListOptions.defaults()
        .batchSize(1000)), e -> {
          entries[0]++;
          if (newest[0] == null || e.versionstamp().compareTo(newest[0]) > 0) {
            newest[0] = e.versionstamp();
          }
        });
    ObjectNode info = Render.JSON.createObjectNode();
    EngineProvider engine = db.engine();
    info.put("engine", engine.displayName());
    info.put("location", engine.describe(db.location()));
    List<Path> files = engine.files(db.location());
    if (!files.isEmpty()) {
      info.put("bytes", fileBytes(files));
    }
    info.put("entries", entries[0]);
    if (listing.corrupt() > 0) {
      info.put("corruptEntries", listing.corrupt());
    }
    info.put("newestVersionstamp", newest[0] == null ? null : newest[0].toString());
    Cid fingerprint = fingerprint(kv.engine());
    info.put("fingerprint", fingerprint == null ? null : fingerprint.toString());
    if (kv.engine() instanceof DagEngine dag) {
      info.put("commit", dag.headCid().toString()); // what ?at= takes
    }
    Optional<QueueDepth> queue = kv.engine().queueDepth();
    queue.ifPresent(q -> {
      ObjectNode depth = info.putObject("queue");
      depth.put("ready", q.ready());
      depth.put("delayed", q.delayed());
      depth.put("running", q.running());
      depth.put("oldestReadySeconds", q.oldestReadyWait().toMillis() / 1000.0);
    });
    if (json) {
      out().println(Render.text(info));
    } else {
      info.remove("queue");
      info.properties().forEach(f -> out().println(f.getKey() + ": "
          + (f.getValue().isNull() ? "(none)" : f.getValue().asText())));
      queue.ifPresent(q -> out().println("queue: " + describe(q)));
    }
    return listing.exitCode(false);
  }

  /** "2 ready (the oldest due for 3.5 s), 1 delayed, 0 running". */
  private static String describe(QueueDepth q) {
    String oldest = q.ready() == 0 ? ""
        : " (the oldest due for " + roughly(q.oldestReadyWait()) + ")";
    return q.ready() + " ready" + oldest + ", " + q.delayed() + " delayed, " + q.running()
        + " running";
  }

  /** "3.5 s", "12 min 5 s", "26 h 40 min": as precise as a person reading it wants. */
  private static String roughly(Duration d) {
    long s = d.toSeconds();
    if (s < 60) {
      return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
    return s < 3600 ? s / 60 + " min " + s % 60 + " s" : s / 3600 + " h " + s % 3600 / 60 + " min";
  }

  /** The keyspace root (docs/dag-keyspace.md §3), or null where the engine cannot dump. */
  private static Cid fingerprint(KvEngine engine) {
    if (engine instanceof DagEngine dag) {
      return dag.fingerprint();
    }
    try {
      return Fingerprint.of(engine);
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  /** The files that hold the database, those that exist. */
  private static long fileBytes(List<Path> files) throws IOException {
    long total = 0;
    for (Path p : files) {
      if (Files.exists(p)) {
        total += Files.size(p);
      }
    }
    return total;
  }
}
