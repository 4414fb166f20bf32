package dev.kvasir.base;

import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;

/**
 * Where Kvasir reports what it measures, for a metrics library to keep (docs/operations.md §5):
 * {@code kvasir-micrometer} hands these to a Micrometer {@code MeterRegistry}, and without one
 * nothing is recorded and no metrics library is needed. Names are lower case and dotted ({@code
 * kvasir.engine.commit.batch.size}); tags come in name, value pairs. Each method is called once
 * per meter, when it is bound; what it returns is called on the measured path, so it must be
 * cheap and thread-safe.
 */
public interface MeterSink {
  /** A count that only grows; the result adds to it. */
  LongConsumer counter(String name, String description, String... tags);

  /**
   * A count that only grows, kept elsewhere (in a file header, by a connection pool) and read
   * whenever metrics are collected; {@code value} must answer at once.
   */
  void functionCounter(String name, String description, DoubleSupplier value, String... tags);

  /** A distribution of values, such as batch sizes; the result records one value. */
  DoubleConsumer summary(String name, String description, String... tags);

  /** A distribution of durations; the result records one, in nanoseconds. */
  LongConsumer timer(String name, String description, String... tags);

  /**
   * A value read whenever metrics are collected, such as a queue's depth. {@code value} must
   * answer at once, from memory: it may run on a scraper's request thread.
   */
  void gauge(String name, String description, DoubleSupplier value, String... tags);

  /**
   * The database these meters measure is closed, so they will read nothing more: {@code
   * kvasir-micrometer} removes them from its registry, so that a database opened again under the
   * same tags gets meters of its own rather than readings of the closed one. Called once, by
   * {@code Kv.close}.
   */
  default void databaseClosed() {}
}
