package dev.kvasir.dag.engine;

import dev.kvasir.base.KvArgumentException;
import java.nio.file.Path;

/**
 * A {@code dag:} location: {@code dag:DIR}, or {@code dag:DIR?at=WHEN} for a past state.
 *
 * @param at a versionstamp, commit CID or ISO-8601 instant, or null for the newest state
 */
public record DagLocation(Path dir, String at) {
  static final String SCHEME = "dag:";

  /** Whether {@code location} is a {@code dag:} location at all. */
  public static boolean matches(String location) {
    return location.startsWith(SCHEME);
  }

  /** Parses {@code dag:DIR[?at=WHEN]}. */
  public static DagLocation parse(String location) {
    if (!matches(location) || location.length() == SCHEME.length()) {
      throw new KvArgumentException("a KV/DAG location is dag:DIR, got \"" + location + "\"");
    }
    String rest = location.substring(SCHEME.length());
    int q = rest.indexOf('?');
    if (q < 0) {
      return new DagLocation(Path.of(rest), null);
    }
    String query = rest.substring(q + 1);
    if (!query.startsWith("at=") || query.length() == 3) {
      throw new KvArgumentException("a KV/DAG location takes one parameter, at=WHEN; got \""
          + query + "\"");
    }
    return new DagLocation(Path.of(rest.substring(0, q)), query.substring(3));
  }

  /** Parses a location that names the newest state only, as a place to write. */
  public static Path directory(String location) {
    DagLocation parsed = parse(location);
    if (parsed.at() != null) {
      throw new KvArgumentException(location + " names a past state; name the directory only"
          + " (dag:DIR) to write there");
    }
    return parsed.dir();
  }
}
