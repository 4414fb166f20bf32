package dev.kvasir.spi;

import dev.kvasir.KvOptions;

/**
 * Opens engines for locations; found through {@link java.util.ServiceLoader} by {@link
 * dev.kvasir.Kv#open(String)}. When several providers accept a location, the highest priority
 * wins (the SQLite engine outranks the memory engine for {@code ":memory:"}).
 */
public interface EngineProvider {
  /** A short name for messages, e.g. {@code memory}. */
  String name();

  /** The locations accepted, for the message listing engines, e.g. {@code ":memory:"}. */
  String locations();

  /** The priority with which this provider takes {@code location}, or negative to decline. */
  int priority(String location);

  /** Opens (or creates) the database at {@code location}. */
  KvEngine open(String location, KvOptions options);
}
