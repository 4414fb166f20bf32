package dev.kvasir.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.Kv;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.engine.Backup;
import dev.kvasir.dag.engine.DagLocation;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvasir backup}: a continuous backup into a KV/DAG directory (docs/backup.md). */
@Command(name = "backup", mixinStandardHelpOptions = true,
    description = {"Back the database up into a KV/DAG directory and keep following it: each"
        + " time its commit version moves (commits of other processes, Deno's included), its"
        + " state is copied as one commit of the backup, storing only the entries and shards"
        + " that changed. Stops on SIGTERM or Ctrl-C, or once nobody reads its output; --once"
        + " copies one state and stops. A copy under way when it stops is given up, leaving"
        + " the backup as it was.",
        "Each copy is dated by when it was read: 'kvasir restore --at TIME' restores the state"
            + " the database had at TIME. Queued messages are not backed up (see the README)."},
    footer = {"", "Examples:",
        "  kvasir backup --db app.sqlite3 --to dag:./backup",
        "  kvasir backup --db postgresql://db/app --to dag:./backup --interval 1s",
        "  kvasir backup --db app.sqlite3 --to dag:./backup --once --json"})
final class BackupCommand extends DbCommand {
  @Option(names = "--to", required = true, paramLabel = "dag:DIR",
      description = "The backup directory; created, or continued if it exists.")
  String to;

  @Option(names = "--once", description = "Copy the current state and stop.")
  boolean once;

  @Option(names = "--interval", defaultValue = "50ms", paramLabel = "DURATION",
      description = "How often to look whether the database changed; a state that lasts less"
          + " may be missed. At least 1ms; default: ${DEFAULT-VALUE}.")
  Duration interval;

  @Option(names = "--json", description = "One JSON object per copy.")
  boolean json;

  @Override
  void checkArguments() {
    if (interval.toMillis() < 1) {
      // Below a millisecond the loop waited 0 ms between looks: a core at 100% for nothing.
      throw new IllegalArgumentException("--interval must be at least 1ms");
    }
  }

  @Override
  int run(Kv kv) throws InterruptedException {
    try (Backup backup = Backup.open(DagLocation.directory(to))) {
      return once ? copyOnce(kv, backup) : follow(kv, backup);
    }
  }

  /**
   * One copy. A signal stops it half-way (its output is one line at the end, so a reader going
   * away is seen there, as by any command).
   */
  private int copyOnce(Kv kv, Backup backup) {
    AtomicBoolean stop = new AtomicBoolean();
    try (Kvasir.Interruption signals = Kvasir.onInterrupt(() -> stop.set(true))) {
      print(backup.take(kv.engine(), stop::get), backup);
      return out().checkError() ? Kvasir.PIPE_CLOSED : 0;
    } catch (CancellationException e) {
      err().println("backup stopped by " + Termination.stopper() + " before its copy was"
          + " complete: " + unchanged(backup));
      return Termination.unfinishedStatus();
    }
  }

  /** Copies each new state until a signal or a reader gone stops it, mid-copy if need be. */
  private int follow(Kv kv, Backup backup) throws InterruptedException {
    CountDownLatch stop = new CountDownLatch(1);
    BooleanSupplier stopRequested = () -> stop.getCount() == 0;
    try (Kvasir.Interruption interruption = Kvasir.untilStopped(stop::countDown)) {
      do {
        Optional<Backup.Snapshot> copied;
        try {
          copied = backup.takeIfChanged(kv.engine(), stopRequested);
        } catch (KvUnavailableException e) {
          err().println("warning: " + e.getMessage() + "; trying again");
          continue;
        } catch (CancellationException e) {
          if (!out().checkError()) {
            err().println("backup stopped by " + Termination.stopper() + " during a copy,"
                + " which was not kept: " + unchanged(backup));
          }
          break;
        }
        if (copied.isPresent()) {
          print(copied, backup);
          if (out().checkError()) {
            return Kvasir.PIPE_CLOSED;
          }
        }
      } while (!stop.await(interval.toMillis(), TimeUnit.MILLISECONDS));
      return out().checkError() ? Kvasir.PIPE_CLOSED : 0;
    }
  }

  private static String unchanged(Backup backup) {
    return "the backup is as it was" + (backup.head() == null ? ", without a copy"
        : ", ending at " + backup.head());
  }

  private void print(Optional<Backup.Snapshot> copied, Backup backup) {
    if (copied.isEmpty() && !json) {
      out().println("unchanged since the last copy: " + backup.head());
      out().flush();
      return;
    }
    // --once --json prints one object either way, so that a script always finds the commit.
    Backup.Snapshot s = copied.or(backup::last).orElseThrow();
    ObjectNode line = Render.JSON.createObjectNode();
    line.put("time", s.time().toString());
    line.put("versionstamp", Versionstamp.ofVersion(s.version()).toString());
    line.put("entries", s.entries());
    line.put("changed", s.changed());
    line.put("bytes", s.bytes());
    line.put("commit", s.commit().toString());
    if (copied.isEmpty()) {
      line.put("unchanged", true);
    }
    if (json) {
      out().println(Render.text(line));
    } else {
      out().println(s.time() + "  " + line.get("versionstamp").asText() + "  " + s.entries()
          + " entries, " + s.changed() + " changed, " + s.bytes() + " bytes  " + s.commit());
    }
    out().flush();
  }
}
