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

  /** Entries written by the last export. */
  private long exported;

  @Override
  int run(Kv kv) throws Exception {
    if (output == null) {
      return export(kv, out(), null);
    }
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
    boolean showProgress = !quiet && System.console() != null && output != null;
    long[] count = {0};
    Listing listing = new Listing(lines, err());
    try (Progress progress = new Progress(err(), showProgress, "exported", 0)) {
      try {
        listing.walkStored(kv.engine(), selection.selector().keyRange(), e -> {
          lines.println(Render.text(Render.storedJson(e)));
          progress.update(++count[0], 0);
        });
      } catch (UnsupportedOperationException unsupported) {
        err().println("warning: this database does not tell expiries (" + unsupported
            .getMessage() + "); the export has none");
        listing.walk(kv.list(selection.selector(), ListOptions.defaults().batchSize(500)), e -> {
          lines.println(Render.text(Render.entryJson(e)));
          progress.update(++count[0], 0);
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
    exported = count[0];
    return listing.exitCode(skipCorrupt);
  }
}
