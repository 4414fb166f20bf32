package dev.kvasir.micrometer;

import dev.kvasir.Kv;
import dev.kvasir.spi.KvEngine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Binds what a database measures to a Micrometer registry (docs/operations.md §5): commits,
 * group-commit batch sizes, expiry sweeps, queue depth and the age of the oldest due message,
 * and the engine's own (SQLite's write-ahead log and lock waits, PostgreSQL's pool, retries and
 * reconnections).
 *
 * <pre>{@code
 * Kv kv = Kv.open("app.sqlite3");
 * new KvasirMetrics(kv, Tags.of("db", "app")).bindTo(registry);
 * }</pre>
 *
 * The registry then holds the database's meters, and through them the database. Closing the
 * {@code Kv} removes them, so that a database opened again under the same tags gets meters of its
 * own; give each database open at the same time tags of its own, as meters of one name and tags
 * are one meter. An engine used without a {@code Kv} cannot say that it closed: {@link #close()}
 * removes the meters this binder bound, as its owner closes the engine.
 */
public final class KvasirMetrics implements MeterBinder, AutoCloseable {
  private final Consumer<MicrometerSink> target;
  private final Iterable<Tag> tags;
  /** What {@link #bindTo} made, told on {@link #close()}. */
  private final List<MicrometerSink> bound = new CopyOnWriteArrayList<>();

  /** The meters of {@code kv} and its engine. */
  public KvasirMetrics(Kv kv) {
    this(kv, Tags.empty());
  }

  /** The meters of {@code kv} and its engine, each with {@code tags} too. */
  public KvasirMetrics(Kv kv, Iterable<Tag> tags) {
    Objects.requireNonNull(kv, "kv");
    this.target = kv::bindMeters;
    this.tags = Objects.requireNonNull(tags, "tags");
  }

  /** The meters of an engine used without a {@code Kv}, as a server uses one. */
  public KvasirMetrics(KvEngine engine, Iterable<Tag> tags) {
    Objects.requireNonNull(engine, "engine");
    this.target = engine::bindMeters;
    this.tags = Objects.requireNonNull(tags, "tags");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    MicrometerSink sink = new MicrometerSink(registry, Tags.of(tags));
    bound.add(sink);
    target.accept(sink);
  }

  /**
   * Removes the meters this binder bound from their registries, which would otherwise hold (and
   * read) the database after it closed. Closing a {@code Kv} does so by itself. Idempotent.
   */
  @Override
  public void close() {
    bound.forEach(MicrometerSink::databaseClosed);
    bound.clear();
  }
}
