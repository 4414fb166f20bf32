package dev.kvasir.cli;

import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.KvListIterator;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.key.KeyRange;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Walks a listing for the commands that read many entries ({@code list}, {@code export},
 * {@code count}, {@code info}). An entry another program stored in a form no client can read
 * does not stop the walk: it is named on standard error and counted, and the caller exits
 * non-zero at the end. A closed standard output (the reader of a pipe went away, as
 * {@code head} does) stops the walk within {@link OutputWatch#EVERY} entries, so the rest of
 * the database is not read.
 */
final class Listing {
  private final OutputWatch output;
  private final PrintWriter err;
  private long corrupt;
  /** Whether a look found the output closed: the walk stops. */
  private boolean outputClosed;

  Listing(PrintWriter out, PrintWriter err) {
    this.output = new OutputWatch(out);
    this.err = err;
  }

  /**
   * Hands every readable entry to {@code each}, in order; {@code each} may decode the value,
   * and an entry whose value turns out corrupt is skipped like one whose key is.
   */
  void walk(KvListIterator entries, Consumer<KvEntry> each) {
    while (!outputClosed && entries.hasNext()) {
      KvEntry entry;
      try {
        entry = entries.next();
      } catch (KvCorruptEntryException e) {
        skip(e);
        continue;
      }
      offer(() -> each.accept(entry), why -> new KvCorruptEntryException(entry.key().encode(),
          entry.key().toString(), why));
    }
  }

  /**
   * Hands one entry on with {@code give}; a value it finds corrupt is skipped, named by {@code
   * corrupt}. Every {@link OutputWatch#EVERY} entries it looks whether the output was closed.
   *
   * @return false once the output is closed
   */
  private boolean offer(Runnable give, Function<String, KvCorruptEntryException> corrupt) {
    try {
      give.run();
    } catch (KvCorruptEntryException e) {
      skip(e);
    } catch (KvDecodeException e) {
      skip(corrupt.apply(e.getMessage()));
    }
    outputClosed = !output.wrote();
    return !outputClosed;
  }

  /**
   * {@link #walk} over the entries of {@code engine} in {@code range} with their expiries, from
   * {@link KvEngine#dump} (a lossless export). The dump reads every entry; those outside the
   * range are passed over.
   *
   * @throws UnsupportedOperationException if the engine cannot dump (a remote database)
   */
  void walkStored(KvEngine engine, KeyRange range, Consumer<StoredEntry> each) {
    try {
      engine.dump(entry -> {
        if (!range.contains(entry.key().sharedBytes())) {
          return;
        }
        if (!offer(() -> each.accept(entry), why -> new KvCorruptEntryException(
            entry.key().bytes(), keyText(entry.key()), why))) {
          throw new OutputClosed();
        }
      });
    } catch (OutputClosed e) {
      // the dump stops here; outputClosed says why
    }
  }

  /** The key as Kvasir writes keys, or null if its bytes are no key. */
  private static String keyText(RawKey key) {
    try {
      return KvKey.decode(key.sharedBytes()).toString();
    } catch (KvDecodeException e) {
      return null;
    }
  }

  /** Ends a dump early: nobody reads the output any more. */
  private static final class OutputClosed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutputClosed() {
      super(null, null, false, false);
    }
  }

  private void skip(KvCorruptEntryException e) {
    corrupt++;
    err.println("kvasir: skipped: " + e.getMessage());
    err.flush();
  }

  /**
   * Whether the output was closed under the walk, looked at once more now: the walk looks only
   * every {@link OutputWatch#EVERY} entries, and a reader may go away before the last ones.
   */
  boolean outputClosed() {
    outputClosed = output.closed();
    return outputClosed;
  }

  /** How many corrupt entries were skipped. */
  long corrupt() {
    return corrupt;
  }

  /**
   * The exit code once the walk is done: 0; {@link Kvasir#PIPE_CLOSED} if the output went
   * away; {@link Kvasir#DATABASE_ERROR} after a summary if corrupt entries were skipped and
   * {@code tolerated} is false.
   */
  int exitCode(boolean tolerated) {
    if (outputClosed()) {
      return Kvasir.PIPE_CLOSED;
    }
    if (corrupt > 0) {
      err.println("kvasir: " + corrupt + " corrupt " + (corrupt == 1 ? "entry" : "entries")
          + " skipped (named above)");
      err.flush();
      return tolerated ? 0 : Kvasir.DATABASE_ERROR;
    }
    return 0;
  }
}
