package dev.kvasir.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.value.EncodedValue;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvasir import}. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Read NDJSON as 'kvasir export' writes it ({\"key\":[…],\"value\":…} per line;"
        + " a versionstamp is ignored, the commit makes new ones) and set every entry.",
        "Entries are committed in atomic batches. On an error the import stops and says which"
            + " line failed and how many lines were committed before it; --skip resumes.",
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

  @Parameters(paramLabel = "FILE", arity = "0..1", defaultValue = "-",
      description = "The NDJSON file; - or nothing for standard input.")
  String file;

  @Option(names = "--skip", paramLabel = "LINES",
      description = "Skip the first LINES lines (to resume after an error).")
  long skip;

  @Option(names = "--quiet", description = "No progress line, even on a terminal.")
  boolean quiet;

  private record Item(long line, KvKey key, EncodedValue value) {}

  @Override
  boolean writes() {
    return true;
  }

  @Override
  int run(Kv kv) throws Exception {
    boolean stdin = file.equals("-");
    long total = stdin ? 0 : Files.size(Path.of(file));
    InputStream in = stdin ? System.in : Files.newInputStream(Path.of(file));
    boolean showProgress = !quiet && !stdin && System.console() != null;
    long lineNumber = 0;
    long bytesRead = 0;
    long committedLines = skip;
    long imported = 0;
    List<Item> batch = new ArrayList<>();
    int batchBytes = 0;
    int batchKeyBytes = 0;
    try (InputStream buffered = new BufferedInputStream(in);
        Progress progress = new Progress(err(), showProgress, "imported", total)) {
      Utf8Lines reader = new Utf8Lines(buffered);
      String line;
      while ((line = readLine(reader, lineNumber + 1, kv, batch, committedLines)) != null) {
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
          commit(kv, batch, committedLines);
          throw stopped(lineNumber, e.getMessage(), lineNumber - 1);
        }
        int keyBytes = item.key().encodedLength();
        int size = keyBytes + item.value().size();
        if (batch.size() == BATCH_ENTRIES || batchBytes + size > BATCH_BYTES
            || batchKeyBytes + keyBytes > BATCH_KEY_BYTES) {
          commit(kv, batch, committedLines);
          imported += batch.size();
          committedLines = lineNumber - 1;
          batch.clear();
          batchBytes = 0;
          batchKeyBytes = 0;
        }
        batch.add(item);
        batchBytes += size;
        batchKeyBytes += keyBytes;
        progress.update(imported + batch.size(), bytesRead);
      }
      commit(kv, batch, committedLines);
      imported += batch.size();
    }
    err().println("imported " + imported + " entries");
    return 0;
  }

  private static Item parse(long line, String text) {
    try {
      JsonNode json = Render.JSON.readTree(text);
      if (!json.isObject() || !json.has("key") || !json.has("value")) {
        throw new IllegalArgumentException("expected {\"key\":[…],\"value\":…}");
      }
      KvKey key = Render.key(json.get("key"));
      Object value = TypedJson.read(json.get("value"));
      EncodedValue encoded = value instanceof EncodedValue v ? v : EncodedValue.of(value);
      Limits.checkWriteKey(key);
      Limits.checkValue(encoded.size());
      return new Item(line, key, encoded);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    } catch (KvLimitException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  private static void commit(Kv kv, List<Item> batch, long committedLines) {
    if (batch.isEmpty()) {
      return;
    }
    AtomicOperation op = kv.atomic();
    batch.forEach(item -> op.set(item.key(), item.value()));
    try {
      op.commit();
    } catch (KvException e) {
      throw new KvException(message(batch.get(0).line(), "the batch from this line could not"
          + " be committed: " + e.getMessage(), committedLines), e);
    }
  }

  /** The next line; input that is not UTF-8 stops the import at that line. */
  private static String readLine(Utf8Lines reader, long number, Kv kv, List<Item> batch,
      long committedLines) throws IOException {
    try {
      return reader.next();
    } catch (CharacterCodingException e) {
      commit(kv, batch, committedLines);
      throw stopped(number, "the line is not UTF-8", number - 1);
    }
  }

  private static Failure stopped(long line, String problem, long committedLines) {
    return new Failure(message(line, problem, committedLines));
  }

  private static String message(long line, String problem, long committedLines) {
    return "import stopped at line " + line + ": " + problem + ". Lines 1-" + committedLines
        + " are imported and nothing after them (batches are atomic); fix the line and run"
        + " again with --skip " + committedLines;
  }
}
