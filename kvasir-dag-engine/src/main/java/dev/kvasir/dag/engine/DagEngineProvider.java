package dev.kvasir.dag.engine;

import dev.kvasir.base.KvOptions;
import dev.kvasir.engine.LeasedQueue;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Opens {@link DagEngine}s for {@code dag:DIR} and, read-only at a past state, {@code
 * dag:DIR?at=WHEN} (a versionstamp, a commit CID or an ISO-8601 instant).
 */
public final class DagEngineProvider implements EngineProvider {
  private static final String READ_ONLY = "dag.readOnly";
  /** {@link DagEngine#open(java.nio.file.Path, java.time.Duration)}'s poll, in milliseconds. */
  private static final String QUEUE_POLL_MS = "dag.queuePollMs";

  /** Called by {@link java.util.ServiceLoader}. */
  public DagEngineProvider() {}

  @Override
  public String name() {
    return "dag";
  }

  @Override
  public String displayName() {
    return "KV/DAG";
  }

  @Override
  public String locations() {
    return "dag:DIR or dag:DIR?at=VERSIONSTAMP|CID|ISO-TIME";
  }

  /** Above SQLite's 10: SQLite takes every location that is not a URL as a file name. */
  @Override
  public int priority(String location) {
    return DagLocation.matches(location) ? 20 : -1;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    options.requireKnown(name(), Set.of(READ_ONLY, QUEUE_POLL_MS));
    DagLocation parsed = DagLocation.parse(location);
    if (parsed.at() != null) {
      return DagEngine.openAt(parsed.dir(), parsed.at());
    }
    boolean readOnly = Boolean.parseBoolean(options.get(READ_ONLY).orElse("false").trim());
    if (readOnly) {
      return DagEngine.openReadOnly(parsed.dir());
    }
    return DagEngine.open(parsed.dir(), LeasedQueue.checkPoll(QUEUE_POLL_MS,
        options.millisValue(QUEUE_POLL_MS, LeasedQueue.DEFAULT_POLL)));
  }

  /**
   * The newest state, following new commits, without the writer's lock: so commands that only
   * read, and a read-only server, work beside a backup or a replication writing the log.
   */
  @Override
  public KvOptions readOnly(KvOptions options) {
    return options.with(READ_ONLY, "true");
  }

  @Override
  public String describe(String location) {
    DagLocation parsed = DagLocation.parse(location);
    return parsed.dir().toAbsolutePath().normalize()
        + (parsed.at() == null ? "" : " at " + parsed.at());
  }

  /** The block log, and the index file a writer saves beside it (docs/dag-engine.md §2). */
  @Override
  public List<Path> files(String location) {
    Path dir = DagLocation.parse(location).dir();
    return List.of(dir.resolve(BlockLog.FILE_NAME), dir.resolve(IndexFile.FILE_NAME));
  }
}
