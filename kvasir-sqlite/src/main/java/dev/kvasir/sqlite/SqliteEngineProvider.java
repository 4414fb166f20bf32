package dev.kvasir.sqlite;

import dev.kvasir.base.KvOptions;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens a {@link SqliteEngine} for file paths and for {@code ":memory:"} (outranking the memory
 * engine there), as Deno does for every location that is not a URL.
 */
public final class SqliteEngineProvider implements EngineProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public SqliteEngineProvider() {}

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public String locations() {
    return "a file path or \":memory:\"";
  }

  @Override
  public int priority(String location) {
    // A JDBC URL copied from an application's configuration is not a file name: opened as one
    // it made a file called "jdbc:sqlite:app.db". Engines says what to give instead.
    boolean jdbc = location.regionMatches(true, 0, "jdbc:", 0, 5);
    if (location.isEmpty() || location.contains("://") || jdbc) {
      return -1;
    }
    // Taken last, only to be refused with what to give instead: an engine added for the
    // scheme outranks it.
    return FileNames.looksLikeUrl(location) ? 1 : 10;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    return SqliteEngine.open(SqliteConfig.from(location, options));
  }

  @Override
  public String displayName() {
    return "SQLite";
  }

  @Override
  public String describe(String location) {
    return location.equals(":memory:") ? location
        : Path.of(location).toAbsolutePath().normalize().toString();
  }

  /** The database file, its write-ahead log and its shared-memory index. */
  @Override
  public List<Path> files(String location) {
    FileNames.check(location);
    if (location.equals(":memory:")) {
      return List.of();
    }
    return List.of(Path.of(location), Path.of(location + "-wal"), Path.of(location + "-shm"));
  }

  @Override
  public KvOptions readOnly(KvOptions options) {
    return options.with(SqliteOptions.READ_ONLY, "true");
  }
}
