package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.engine.DagLocation;
import dev.kvasir.dag.engine.PointInTime;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.Engines;
import dev.kvasir.spi.KvEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kvasir restore}: point-in-time restore from a KV/DAG backup (docs/backup.md §3). */
@Command(name = "restore", mixinStandardHelpOptions = true,
    description = {"Restore the state a backup (or any KV/DAG database) held at a time into a"
        + " new database: the same keys, values, versionstamps and expiries, and the new"
        + " database's next commit above them. Every block is checked against its hash before"
        + " anything is written; a damaged backup is refused, naming the block.",
        "The target must not exist yet, or (PostgreSQL) hold no entries. A SQLite file or"
            + " dag: directory is built beside it (NAME.restoring-PID) and renamed to NAME"
            + " once whole, so a restore that is killed leaves nothing at NAME; the next"
            + " restore to NAME removes what it left. SIGTERM or Ctrl-C stop it, removing what"
            + " it built."},
    footer = {"", "Examples:",
        "  kvasir restore --from dag:./backup --to restored.sqlite3",
        "  kvasir restore --from dag:./backup --at 2026-11-23T10:15:30Z --to restored.sqlite3",
        "  kvasir restore --from dag:./backup --at 0000000000000a2f0000 \\",
        "      --to postgresql://kvasir@db.internal/app --to-password-file /run/secrets/db"})
final class RestoreCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--from", required = true, paramLabel = "dag:DIR",
      description = "The backup or KV/DAG database.")
  String from;

  @Option(names = "--at", paramLabel = "WHEN", description = "An ISO-8601 time, a"
      + " versionstamp (20 hex digits) or a commit CID. Default: the newest state.")
  String at;

  @Option(names = "--to", required = true, paramLabel = "LOCATION",
      description = "The new database: a SQLite file, a postgresql:// URL, dag:DIR, ...")
  String to;

  @Option(names = "--to-password-file", paramLabel = "FILE",
      description = "For a --to database that logs in (postgresql://): its password, from the"
          + " first line of this file, so that ps does not show it.")
  Path passwordFile;

  @Option(names = "--to-option", paramLabel = "NAME=VALUE", split = ",",
      description = "An option of the --to database's engine, as --db-option gives one to the"
          + " other commands' (e.g. sqlite.synchronous=NORMAL).")
  Map<String, String> engineOptions;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    Path backup = DagLocation.directory(from);
    EngineProvider engine = Engines.provider(to);
    List<Path> files = engine.files(to);
    for (Path file : files) {
      if (Files.exists(file)) {
        throw new KvException(file + " exists; restore writes a new database (remove it or"
            + " choose another --to)");
      }
    }
    KvOptions options = EngineOptions.of(engineOptions);
    if (passwordFile != null) {
      options = options.with("password",
          Secrets.databasePassword(passwordFile, engine, to, "--to-password-file"));
    }
    RestoreTarget target = RestoreTarget.of(engine, to, spec.commandLine().getErr());
    PointInTime.Restored restored;
    AtomicBoolean stop = new AtomicBoolean();
    try (Kvasir.Interruption signals = Kvasir.onInterrupt(() -> stop.set(true));
        KvEngine built = engine.open(target.location(), options)) {
      restored = PointInTime.restore(backup, at, built, stop::get);
    } catch (RuntimeException e) {
      target.discard(); // nothing half-restored is left behind
      if (e instanceof CancellationException) {
        spec.commandLine().getErr().println("restore stopped by " + Termination.stopper()
            + " before it was complete: nothing was restored to " + engine.describe(to));
        return Termination.unfinishedStatus();
      }
      throw e;
    }
    target.moveIntoPlace();
    ObjectNode out = Render.JSON.createObjectNode();
    out.put("entries", restored.entries());
    out.put("versionstamp", Versionstamp.ofVersion(restored.version()).toString());
    out.put("time", restored.time().toString());
    out.put("commit", restored.commit().toString());
    out.put("to", engine.describe(to));
    if (json) {
      spec.commandLine().getOut().println(Render.text(out));
    } else {
      spec.commandLine().getOut().println("restored " + restored.entries() + " entries, the"
          + " state at " + restored.time() + " (versionstamp " + out.get("versionstamp")
          .asText() + ", commit " + restored.commit() + "), into " + out.get("to").asText());
    }
    return 0;
  }
}
