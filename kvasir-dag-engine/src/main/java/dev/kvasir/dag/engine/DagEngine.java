package dev.kvasir.dag.engine;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.LeasedQueue;
import dev.kvasir.engine.RulebookEngine;
import dev.kvasir.engine.Storage;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code dag:} engine (docs/dag-engine.md): every commit is a new KV/DAG root, kept with
 * the ones before it in an append-only block log, so any past state can be read ({@link
 * #openAt}) and the keyspace root is the state's fingerprint ({@link #fingerprint}). Deno's
 * rules come from the rulebook; this engine supplies only storage.
 */
public final class DagEngine extends RulebookEngine {
  private static final Logger log = LoggerFactory.getLogger(DagEngine.class);
  private final DagStorage storage;
  private final BlockLog blocks;

  private DagEngine(DagStorage storage, BlockLog blocks, String name, Duration queuePoll) {
    super(storage, name, queuePoll);
    this.storage = storage;
    this.blocks = blocks;
  }

  /** Opens (creating if needed) the database in directory {@code dir}. */
  public static DagEngine open(Path dir) {
    return open(dir, LeasedQueue.DEFAULT_POLL);
  }

  /**
   * Opens (creating if needed) the database in directory {@code dir}; its idle queue listeners
   * look again every {@code queuePoll} when nothing wakes them (every enqueue, retry and
   * release does; docs/queues.md §3).
   *
   * @throws dev.kvasir.base.KvArgumentException for a poll shorter than a millisecond
   */
  public static DagEngine open(Path dir, Duration queuePoll) {
    LeasedQueue.checkPoll("queuePoll", queuePoll);
    BlockLog blocks = BlockLog.open(dir, false);
    return new DagEngine(DagStorage.open(blocks), blocks, "dag", queuePoll);
  }

  /**
   * Opens the database in {@code dir} as it was at {@code at}, for reading only: a commit's
   * versionstamp (20 hex digits; the state after the newest commit at or below it), a commit
   * record's CID, or an ISO-8601 instant (the state after the newest commit made at or before
   * it).
   *
   * @throws KvArgumentException if {@code at} is none of these or names no commit
   */
  public static DagEngine openAt(Path dir, String at) {
    BlockLog blocks = BlockLog.open(dir, true);
    try {
      Cid commit = find(blocks, at);
      return new DagEngine(DagStorage.at(blocks, commit), blocks, "dag-at",
          LeasedQueue.DEFAULT_POLL);
    } catch (RuntimeException e) {
      blocks.close();
      throw e;
    }
  }

  /**
   * Opens the newest state of the database in {@code dir} for reading only, and follows it:
   * commits another process appends (a backup, a replication) become visible within {@link
   * #FOLLOW_MS} ms, and watchers hear of them (docs/dag-engine.md §4).
   */
  public static DagEngine openReadOnly(Path dir) {
    BlockLog blocks = BlockLog.open(dir, true);
    Cid last = blocks.lastCommit();
    if (last == null) {
      blocks.close();
      throw new KvException("KV/DAG database " + dir + " has no commit yet");
    }
    DagEngine engine = new DagEngine(DagStorage.at(blocks, last), blocks, "dag-read-only",
        LeasedQueue.DEFAULT_POLL);
    Thread follower = new Thread(() -> engine.follow(dir), "kvasir-dag-follow " + dir);
    follower.setDaemon(true);
    engine.follower = follower;
    follower.start();
    return engine;
  }

  /** How often a read-only engine looks for new commits: one size check of the file. */
  static final long FOLLOW_MS = 50;

  private volatile Thread follower;

  private void follow(Path dir) {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(FOLLOW_MS);
        if (storage.follow()) {
          changedElsewhere();
        }
      }
    } catch (InterruptedException e) {
      // closed
    } catch (RuntimeException e) {
      if (!Thread.currentThread().isInterrupted()) { // else closing: the log closed under it
        log.warn("stopped following {}: {}", dir, e.toString());
      }
    }
  }

  @Override
  public void close() {
    Thread thread = follower;
    if (thread != null) {
      thread.interrupt();
    }
    super.close();
  }

  static Cid find(BlockLog blocks, String at) {
    List<Cid> commits = blocks.commits();
    if (at.length() == 20 && at.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      long version = Versionstamp.parse(at).version();
      return newest(blocks, commits, r -> r.version() <= version, "versionstamp " + at);
    }
    if (at.startsWith("b")) {
      Cid cid;
      try {
        cid = Cid.parse(at);
      } catch (RuntimeException e) {
        throw new KvArgumentException("'" + at + "' is not a CID: " + e.getMessage());
      }
      if (!commits.contains(cid)) {
        throw new KvArgumentException("'" + at + "' names no commit of this database");
      }
      return cid;
    }
    Instant time;
    try {
      // A space between date and time, as SQL and RFC 3339 write it, is taken for the 'T'.
      time = Instant.parse(at.replaceFirst("^(\\d{4}-\\d{2}-\\d{2}) ", "$1T"));
    } catch (DateTimeParseException e) {
      // Named by the text alone: it came from ?at=, --at, --from or --to.
      throw new KvArgumentException("'" + at + "' is not a versionstamp (20 hex digits), a"
          + " commit CID or an ISO-8601 instant such as 2026-11-23T10:15:30Z");
    }
    return newest(blocks, commits, r -> !r.time().isAfter(time), "time " + at);
  }

  private static Cid newest(BlockLog blocks, List<Cid> commits,
      Predicate<CommitRecord> atOrBefore, String what) {
    for (int i = commits.size() - 1; i >= 0; i--) {
      if (atOrBefore.test(CommitRecord.of(blocks.require(commits.get(i))))) {
        return commits.get(i);
      }
    }
    throw new KvArgumentException("this database has no commit at or before " + what);
  }

  /** The commit this engine reads (the newest, unless opened at a past one). */
  public CommitRecord head() {
    return storage.head();
  }

  /** The CID of {@link #head()}'s record. */
  public Cid headCid() {
    return storage.headCid();
  }

  /**
   * The entries of the state this engine reads that are live at {@code nowMs}, ascending, read
   * as they are iterated: a state never changes, so they need no transaction held open.
   */
  Iterable<StoredEntry> liveEntries(long nowMs) {
    return () -> {
      Iterator<Storage.Row> rows = storage.read(
          snapshot -> snapshot.scan(RawKey.BELOW_ALL, RawKey.ABOVE_ALL, false));
      return StreamSupport.stream(Spliterators.spliteratorUnknownSize(rows, Spliterator.ORDERED),
          false).filter(row -> Expiry.isLive(row.expireAtMs(), nowMs)).map(Storage.Row::stored)
          .iterator();
    };
  }

  /** The keyspace root of the current state: equal states have equal fingerprints. */
  public Cid fingerprint() {
    return storage.head().keyspace();
  }

  /** The commit log, oldest first. */
  public List<CommitRecord> log() {
    List<CommitRecord> out = new ArrayList<>();
    for (Cid cid : blocks.commits()) {
      out.add(CommitRecord.of(blocks.require(cid)));
    }
    return out;
  }
}
