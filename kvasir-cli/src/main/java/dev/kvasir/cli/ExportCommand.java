package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.ListOptions;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kvasir export}. */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = {"Write entries as NDJSON, one {\"key\",\"value\",\"versionstamp\"} object per"
        + " line in key order, streamed, with \"expiresAt\" (ISO-8601) for an entry that"
        + " expires. Every value type survives (see 'kvasir help set'); 'kvasir import' reads"
        + " it back, with --keep-versionstamps exactly.",
        "Over KV Connect expiries are not known; such an export has none (a warning says so).",
        "On a terminal a progress line is shown on standard error; in pipes it is quiet."},
    footer = {"", "Examples:",
        "  kvasir export > backup.ndjson",
        "  kvasir export --prefix '[\"users\"]' --output users.ndjson",
        "  kvasir export --db old.sqlite3 | kvasir import --db new.sqlite3"})
final class ExportCommand extends DbCommand {
  @Mixin Selection selection;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write to FILE instead of standard output: as FILE.partial-PID, renamed"
          + " to FILE once complete, so a failed or killed export leaves an earlier FILE as it"
          + " was.")
  Path output;

  @Option(names = "--quiet", description = "No progress line, even on a terminal.")
  boolean quiet;

  @Option(names = "--skip-corrupt", description = "Exit 0 although entries that cannot be read"
      + " (stored by another program) were left out; each is still named on standard error.")
  boolean skipCorrupt;

  /** Entries written so far. */
  private long exported;

  /** Set by Ctrl-C or SIGTERM: the export ends before its next entry. */
  private final AtomicBoolean stopRequested = new AtomicBoolean();

  @Override
  void checkArguments() {
    selection.check();
  }

  @Override
  int run(Kv kv) throws Exception {
    // Ended at once, an export to standard output left no word that it is cut short, and one
    // to --output its partial file until the next export.
    try (Kvasir.Interruption stop = Kvasir.onInterrupt(() -> stopRequested.set(true))) {
      return output == null ? export(kv, out(), null) : exportToFile(kv);
    } catch (Stopped e) {
      err().println("export stopped by " + Termination.stopper() + " after " + exported
          + " entries: " + (output == null ? "the output is incomplete"
          : output + " is as it was"));
      return Termination.unfinishedStatus();
    }
  }

  private int exportToFile(Kv kv) throws Exception {
    // Written aside and renamed once complete (docs/backup.md §7): an export that fails or is
    // killed leaves no file at FILE that looks like a whole export, and an earlier one there
    // stays as it was.
    int exit = FileMoves.writeAside(output, err(), partial -> {
      CheckedOutput file = new CheckedOutput(Files.newOutputStream(partial));
      return export(kv, new PrintWriter(new BufferedWriter(new OutputStreamWriter(file,
          StandardCharsets.UTF_8))), file);
    });
    err().println("exported " + exported + " entries to " + output);
    return exit;
  }

  /** Writes the entries to {@code lines}, which write to {@code file}, or to standard output. */
  private int export(Kv kv, PrintWriter lines, CheckedOutput file) throws Exception {
    boolean showProgress = !quiet && Consoles.interactive() && output != null;
    Listing listing = new Listing(lines, err());
    try (Progress progress = new Progress(err(), showProgress, "exported", 0)) {
      try {
        listing.walkStored(kv.engine(), selection.selector().keyRange(), e -> {
          stopIfRequested();
          lines.println(Render.text(Render.storedJson(e)));
          progress.update(++exported, 0);
        });
      } catch (UnsupportedOperationException unsupported) {
        err().println("warning: this database does not tell expiries (" + unsupported
            .getMessage() + "); the export has none");
        listing.walk(kv.list(selection.selector(), ListOptions.defaults().batchSize(500)), e -> {
          stopIfRequested();
          lines.println(Render.text(Render.entryJson(e)));
          progress.update(++exported, 0);
        });
      }
    } finally {
      lines.flush();
      if (file != null) {
        lines.close();
      }
    }
    if (file == null && listing.outputClosed()) {
      return Kvasir.PIPE_CLOSED; // or a full disk: Kvasir.withOutputChecked tells them apart
    }
    if (lines.checkError()) {
      IOException why = file.failure(); // set: a write to it is what fails lines
      throw new IOException("cannot write " + output + (why == null ? "" : ": "
          + why.getMessage()));
    }
    return listing.exitCode(skipCorrupt);
  }

  private void stopIfRequested() {
    if (stopRequested.get()) {
      throw new Stopped();
    }
  }

  /** Ends the walk when a signal asks the export to stop. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super(null, null, false, false);
    }
  }
}
