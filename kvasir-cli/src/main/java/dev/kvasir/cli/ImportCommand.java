package dev.kvasir.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.EncodedValue;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvasir import}. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Read NDJSON as 'kvasir export' writes it ({\"key\":[…],\"value\":…} per line,"
        + " with \"expiresAt\" for an entry that expires) and set every entry. An expiry is kept;"
        + " an entry already expired is left out. The versionstamp is ignored (the commits make"
        + " new ones) unless --keep-versionstamps.",
        "Entries are committed in atomic batches. On an error the import stops and says which"
            + " line failed and how many lines were committed before it; --skip resumes."
            + " Ctrl-C or SIGTERM stops it after the line it is at, the lines read committed,"
            + " and says where to resume. Lines from a pipe that pauses are committed as they"
            + " come, within about a second.",
        "With --keep-versionstamps the entries keep the versionstamps of the export and are"
            + " stored in one transaction into an empty database, whose next commit is above"
            + " them: a lossless copy.",
        "On a terminal a progress line is shown on standard error; in pipes it is quiet."},
    footer = {"", "Examples:",
        "  kvasir import backup.ndjson --db restored.sqlite3",
        "  kvasir export --db old.sqlite3 | kvasir import --db new.sqlite3",
        "  kvasir import backup.ndjson --skip 12000"})
final class ImportCommand extends DbCommand {
  /** Below the atomic limits (docs/limits.md) with room for framing. */
  private static final int BATCH_ENTRIES = 500;
  private static final int BATCH_BYTES = 600 * 1024;
  private static final int BATCH_KEY_BYTES = 64 * 1024;
  /**
   * Lines read are committed before the batch is full once the input has been silent this long
   * or the batch's first line waits this long: a slow producer's lines are stored as they come.
   */
  private static final Duration INPUT_PAUSE = Duration.ofMillis(200);
  private static final Duration BATCH_AGE = Duration.ofSeconds(1);

  @Parameters(paramLabel = "FILE", arity = "0..1", defaultValue = "-",
      description = "The NDJSON file; - or nothing for standard input.")
  String file;

  /** What {@link #file} names, opened by {@link #openInput}. */
  private InputStream input;

  @Option(names = "--skip", paramLabel = "LINES",
      description = "Skip the first LINES lines (to resume after an error).")
  long skip;

  @Option(names = "--quiet", description = "No progress line, even on a terminal.")
  boolean quiet;

  @Option(names = "--keep-versionstamps", description = "Keep every line's versionstamp; the"
      + " database must be empty, and the whole import is one transaction.")
  boolean keepVersionstamps;

  /** A line: its key and value, its versionstamp (or null) and its expiry. */
  private record Item(long line, KvKey key, EncodedValue value, Versionstamp versionstamp,
      long expireAtMs) {}

  @Override
  boolean writes() {
    return true;
  }

  @Override
  void checkArguments() {
    if (skip < 0) {
      throw new IllegalArgumentException("--skip takes a number of lines, 0 or more, not " + skip);
    }
    if (keepVersionstamps && skip > 0) {
      throw new IllegalArgumentException("--keep-versionstamps imports all or nothing; --skip"
          + " does not apply");
    }
  }

  @Override
  AutoCloseable openInput() throws IOException {
    if (file.equals("-") && inShell()) {
      // The shell reads its commands from there: the import took them as lines, then closed
      // the stream, and the shell ended with a stack trace.
      throw new IllegalArgumentException("in the shell, import a file; - (standard input) is"
          + " for 'kvasir import' run on its own");
    }
    if (file.equals("-")) {
      input = System.in;
      return null;
    }
    // Opening a directory for reading succeeds; its first read failed with "Is a directory",
    // naming no file.
    FileErrors.refuseDirectory(Path.of(file));
    input = Files.newInputStream(Path.of(file));
    return input;
  }

  /** Set by Ctrl-C or SIGTERM: the import ends before its next line. */
  private final AtomicBoolean stopRequested = new AtomicBoolean();

  @Override
  int run(Kv kv) throws Exception {
    // Ended at once, an import left no word of how far it got. A second signal still ends it
    // at once (Termination), as when the input stalls.
    try (Kvasir.Interruption stop = Kvasir.onInterrupt(() -> stopRequested.set(true))) {
      return keepVersionstamps ? importExactly(kv) : importInBatches(kv);
    }
  }

  private int importInBatches(Kv kv) throws IOException, InterruptedException {
    boolean stdin = file.equals("-");
    long total = stdin ? 0 : Files.size(Path.of(file));
    boolean showProgress = !quiet && !stdin && Consoles.interactive();
    long lineNumber = 0;
    long bytesRead = 0;
    long committedLines = skip;
    long imported = 0;
    Batch batch = new Batch();
    String line = ""; // null once the input is read to its end
    try (InputStream buffered = new BufferedInputStream(input);
        LineFeed lines = new LineFeed(buffered);
        Progress progress = new Progress(err(), showProgress, "imported", total)) {
      while (!stopRequested.get()) {
        if (!lines.await(INPUT_PAUSE) || batch.olderThan(BATCH_AGE)) {
          // The input is silent (a stalled pipe) or trickles (a slow producer): the lines read
          // are committed now, not once the batch is full, and a signal is seen while waiting.
          imported += batch.commit(kv, committedLines);
          committedLines = Math.max(committedLines, lineNumber);
          continue;
        }
        line = readLine(lines, lineNumber + 1, kv, batch, committedLines);
        if (line == null) {
          break;
        }
        lineNumber++;
        bytesRead += line.length() + 1;
        if (lineNumber <= skip || line.isBlank()) {
          continue;
        }
        Item item;
        try {
          item = parse(lineNumber, line);
        } catch (IllegalArgumentException | KvException e) {
          // Keep what came before the bad line, so that --skip resumes right at it.
          batch.commit(kv, committedLines);
          throw stopped(lineNumber, e.getMessage(), lineNumber - 1);
        }
        if (!batch.fits(item)) {
          imported += batch.commit(kv, committedLines);
          committedLines = lineNumber - 1;
        }
        batch.add(item);
        progress.update(imported + batch.size(), bytesRead);
      }
      imported += batch.commit(kv, committedLines);
      if (line == null) {
        progress.complete();
      }
    }
    if (line != null) {
      return stoppedBySignal(Math.max(lineNumber, skip));
    }
    err().println("imported " + imported + (imported == 1 ? " entry" : " entries"));
    return 0;
  }

  /** Says where an import that a signal stopped after line {@code done} resumes. */
  private int stoppedBySignal(long done) {
    err().println("import stopped by " + Termination.stopper() + (done == 0
        ? " before its first line: nothing was imported"
        : " after line " + done + ": lines 1-" + done + " are imported and nothing after"
            + " them; run again with --skip " + done + " to go on"));
    return Termination.unfinishedStatus();
  }

  /**
   * {@code --keep-versionstamps}: every line read first, then one {@link
   * dev.kvasir.spi.KvEngine#load} into the empty database; a bad line stops it with nothing
   * written.
   */
  private int importExactly(Kv kv) throws IOException, InterruptedException {
    if (kv.list(ListSelector.prefix(KvKey.of()), ListOptions.defaults().limit(1)).hasNext()) {
      throw new Failure("the database holds entries; --keep-versionstamps imports into an"
          + " empty one");
    }
    List<StoredEntry> entries = new ArrayList<>();
    long number = 0;
    try (InputStream in = new BufferedInputStream(input); LineFeed lines = new LineFeed(in)) {
      while (true) {
        while (!stopRequested.get() && !lines.await(INPUT_PAUSE)) {
          // the input is silent: waiting for it, or for a signal
        }
        if (stopRequested.get()) {
          err().println("import stopped by " + Termination.stopper() + " after reading " + number
              + " lines: nothing was imported");
          return Termination.unfinishedStatus();
        }
        String line = lines.next();
        if (line == null) {
          break;
        }
        number++;
        if (line.isBlank()) {
          continue;
        }
        Item item;
        try {
          item = parse(number, line);
        } catch (IllegalArgumentException | KvException e) {
          throw new Failure("import stopped at line " + number + ": " + e.getMessage()
              + ". Nothing was imported");
        }
        if (item.versionstamp() == null) {
          throw new Failure("import stopped at line " + number + ": it has no versionstamp,"
              + " which --keep-versionstamps keeps. Nothing was imported");
        }
        entries.add(new StoredEntry(item.key().raw(), item.value(), item.versionstamp(),
            item.expireAtMs()));
      }
    } catch (CharacterCodingException e) {
      throw new Failure("import stopped: a line is not UTF-8. Nothing was imported");
    } catch (Utf8Lines.LineTooLong e) {
      throw new Failure("import stopped at line " + (number + 1) + ": " + e.getMessage()
          + ". Nothing was imported");
    }
    kv.engine().load(entries);
    err().println("imported " + entries.size() + " entries with their versionstamps");
    return 0;
  }

  private static Item parse(long line, String text) {
    try {
      JsonNode json = JsonText.parse(text);
      if (!json.isObject() || !json.has("key") || !json.has("value")) {
        throw new IllegalArgumentException("expected {\"key\":[…],\"value\":…}");
      }
      KvKey key = Render.key(json.get("key"));
      Object value = TypedJson.read(json.get("value"));
      EncodedValue encoded = value instanceof EncodedValue v ? v : EncodedValue.of(value);
      Limits.checkWriteKey(key);
      Limits.checkValue(encoded.size());
      JsonNode stamp = json.get("versionstamp");
      JsonNode expires = json.get("expiresAt");
      return new Item(line, key, encoded,
          stamp == null || stamp.isNull() ? null : Versionstamp.parse(stamp.asText()),
          expires == null || expires.isNull() ? StoredEntry.NEVER
              : Instant.parse(expires.asText()).toEpochMilli());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("expiresAt is not an ISO-8601 instant: "
          + e.getParsedString());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + JsonText.problem(e));
    } catch (KvLimitException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  /**
   * The entries read and not committed yet: as many as one atomic commit takes
   * (docs/limits.md), and since when the first of them waits.
   */
  private static final class Batch {
    private final List<Item> items = new ArrayList<>();
    private int bytes;
    private int keyBytes;
    private long firstAddedNanos;

    boolean fits(Item item) {
      return items.size() < BATCH_ENTRIES && bytes + bytesOf(item) <= BATCH_BYTES
          && keyBytes + item.key().encodedLength() <= BATCH_KEY_BYTES;
    }

    void add(Item item) {
      if (items.isEmpty()) {
        firstAddedNanos = System.nanoTime();
      }
      items.add(item);
      bytes += bytesOf(item);
      keyBytes += item.key().encodedLength();
    }

    int size() {
      return items.size();
    }

    boolean olderThan(Duration age) {
      return !items.isEmpty() && System.nanoTime() - firstAddedNanos > age.toNanos();
    }

    private static int bytesOf(Item item) {
      return item.key().encodedLength() + item.value().size();
    }

    /**
     * Commits the entries in one atomic write and empties the batch.
     *
     * @return how many entries there were
     */
    int commit(Kv kv, long committedLines) {
      if (items.isEmpty()) {
        return 0;
      }
      AtomicOperation op = kv.atomic();
      long now = System.currentTimeMillis();
      for (Item item : items) {
        if (item.expireAtMs() == StoredEntry.NEVER) {
          op.set(item.key(), item.value());
        } else if (item.expireAtMs() > now) {
          op.set(item.key(), item.value(), Duration.ofMillis(item.expireAtMs() - now));
        } // else expired already: as if the source had swept it
      }
      try {
        op.commit();
      } catch (KvException e) {
        // A database that fails for now (a full disk, a server away) is no fault of the line.
        throw new KvException(message(items.get(0).line(), "the batch from this line could not"
            + " be committed: " + e.getMessage(), committedLines, !e.isRetryable()), e);
      }
      int committed = items.size();
      items.clear();
      bytes = 0;
      keyBytes = 0;
      return committed;
    }
  }

  /** The next line; input that is not UTF-8 stops the import at that line. */
  private static String readLine(LineFeed lines, long number, Kv kv, Batch batch,
      long committedLines) throws IOException {
    try {
      return lines.next();
    } catch (CharacterCodingException e) {
      batch.commit(kv, committedLines);
      throw stopped(number, "the line is not UTF-8", number - 1);
    } catch (Utf8Lines.LineTooLong e) {
      batch.commit(kv, committedLines);
      throw stopped(number, e.getMessage(), number - 1);
    }
  }

  private static Failure stopped(long line, String problem, long committedLines) {
    return new Failure(message(line, problem, committedLines, true));
  }

  /**
   * Where the import stopped and how to go on: after fixing the line if {@code lineAtFault},
   * else once the database can take the rest.
   */
  private static String message(long line, String problem, long committedLines,
      boolean lineAtFault) {
    String stopped = "import stopped at line " + line + ": "
        + (problem.endsWith(".") ? problem.substring(0, problem.length() - 1) : problem);
    if (committedLines == 0) {
      return stopped + ". Nothing was imported";
    }
    return stopped + ". Lines 1-" + committedLines + " are imported and nothing after them"
        + " (batches are atomic); " + (lineAtFault ? "fix the line and run again" : "once the"
        + " database takes writes again, run again") + " with --skip " + committedLines;
  }
}
