package dev.kvasir.spi;

import dev.kvasir.base.KvOptions;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens engines for locations; found through {@link java.util.ServiceLoader} by {@link Engines},
 * which {@code Kv.open}, {@code kvasir serve} and every CLI command use. When several providers
 * accept a location, the highest priority wins (the SQLite engine outranks the memory engine for
 * {@code ":memory:"}). A provider describes what it opens, so that callers never need to know
 * which engine they got (docs/architecture.md, "Adding an engine").
 */
public interface EngineProvider {
  /** A short name for messages, e.g. {@code memory}. */
  String name();

  /** The engine's name for people, e.g. {@code PostgreSQL}; by default {@link #name()}. */
  default String displayName() {
    return name();
  }

  /** The locations accepted, for the message listing engines, e.g. {@code ":memory:"}. */
  String locations();

  /** The priority with which this provider takes {@code location}, or negative to decline. */
  int priority(String location);

  /** Opens (or creates) the database at {@code location}. */
  KvEngine open(String location, KvOptions options);

  /**
   * Where the data of {@code location} lives, for people and logs (an absolute path, a server
   * and schema), with any secret such as a password in a URL hidden.
   */
  default String describe(String location) {
    return Engines.redact(location);
  }

  /**
   * The local files holding the database at {@code location}, the main one first; empty when
   * the data lives elsewhere. Commands that only read refuse a main file that does not exist,
   * rather than create it, and {@code kvasir info} adds up their sizes.
   */
  default List<Path> files(String location) {
    return List.of();
  }

  /**
   * {@code options} changed to open the database for reading only, where the engine supports
   * that (SQLite opens read-only connections and neither sweeps nor migrates); unchanged where
   * it does not.
   */
  default KvOptions readOnly(KvOptions options) {
    return options;
  }

  /**
   * Whether the engine logs in to a server with a {@code password} option, so that the
   * command line's {@code --db-password-file} means something to it; by default it does not.
   */
  default boolean takesPassword() {
    return false;
  }
}
