package dev.kvasir.dag.engine;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvOptions;
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
  private static final String SCHEME = "dag:";

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
    return location.startsWith(SCHEME) ? 20 : -1;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    options.requireKnown(name(), Set.of());
    Location parsed = Location.parse(location);
    return parsed.at() == null ? DagEngine.open(parsed.dir())
        : DagEngine.openAt(parsed.dir(), parsed.at());
  }

  @Override
  public String describe(String location) {
    Location parsed = Location.parse(location);
    return parsed.dir().toAbsolutePath().normalize()
        + (parsed.at() == null ? "" : " at " + parsed.at());
  }

  @Override
  public List<Path> files(String location) {
    return List.of(Location.parse(location).dir().resolve(BlockLog.FILE_NAME));
  }

  /** A parsed {@code dag:} location. */
  record Location(Path dir, String at) {
    static Location parse(String location) {
      if (!location.startsWith(SCHEME) || location.length() == SCHEME.length()) {
        throw new KvArgumentException("a KV/DAG location is dag:DIR, got \"" + location + "\"");
      }
      String rest = location.substring(SCHEME.length());
      int q = rest.indexOf('?');
      if (q < 0) {
        return new Location(Path.of(rest), null);
      }
      String query = rest.substring(q + 1);
      if (!query.startsWith("at=") || query.length() == 3) {
        throw new KvArgumentException("a KV/DAG location takes one parameter, at=WHEN; got \""
            + query + "\"");
      }
      return new Location(Path.of(rest.substring(0, q)), query.substring(3));
    }
  }
}
