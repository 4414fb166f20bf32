package dev.kvasir.base;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Settings passed to the engine that opens a location, as named string options; each engine
 * documents the names it reads (the memory engine reads none). Immutable:
 *
 * <pre>{@code
 * KvOptions options = KvOptions.defaults().with("sqlite.synchronous", "NORMAL");
 * }</pre>
 */
public final class KvOptions {
  private static final KvOptions DEFAULTS = new KvOptions(new TreeMap<>());

  private final TreeMap<String, String> values;

  private KvOptions(TreeMap<String, String> values) {
    this.values = values;
  }

  /** No options set. */
  public static KvOptions defaults() {
    return DEFAULTS;
  }

  /** A copy with {@code name} set to {@code value}. */
  public KvOptions with(String name, String value) {
    TreeMap<String, String> copy = new TreeMap<>(values);
    copy.put(name, value);
    return new KvOptions(copy);
  }

  /** The value of an option, if set. */
  public Optional<String> get(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /**
   * An integer option, or {@code fallback} when it is not set.
   *
   * @throws KvArgumentException naming the option if it is no integer
   */
  public long longValue(String name, long fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new KvArgumentException(name + " must be an integer: received " + v);
    }
  }

  /**
   * An integer option from {@code min} to {@code max}, or {@code fallback} when it is not set.
   * A cast of {@link #longValue} to {@code int} would take 4294967297 for 1.
   *
   * @throws KvArgumentException naming the option if it is no integer or out of that range
   */
  public int intValue(String name, int fallback, int min, int max) {
    long v = longValue(name, fallback);
    if (v < min || v > max) {
      throw new KvArgumentException(name + " must be " + min + " to " + max + ": received " + v);
    }
    return (int) v;
  }

  /**
   * A duration option given in whole milliseconds ({@code sqlite.busyTimeoutMs}), or {@code
   * fallback} when it is not set.
   *
   * @throws KvArgumentException naming the option if it is no integer or negative
   */
  public Duration millisValue(String name, Duration fallback) {
    long ms = longValue(name, fallback.toMillis());
    if (ms < 0) {
      throw new KvArgumentException(name + " must not be negative: received " + ms);
    }
    return Duration.ofMillis(ms);
  }

  /**
   * A {@code true}/{@code false} option, or {@code fallback} when it is not set.
   *
   * @throws KvArgumentException naming the option if it is neither
   */
  public boolean booleanValue(String name, boolean fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    return switch (v.trim()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new KvArgumentException(name + " must be true or false: received "
          + v.trim());
    };
  }

  /**
   * This, if every option set is one of {@code known}; an engine calls it as it opens, so that
   * a misspelt option ({@code sqlite.synchronus}) is refused rather than ignored.
   *
   * @throws KvArgumentException naming the unknown options and the ones {@code engine} reads
   */
  public KvOptions requireKnown(String engine, Collection<String> known) {
    List<String> unknown = values.keySet().stream().filter(n -> !known.contains(n)).toList();
    if (!unknown.isEmpty()) {
      throw new KvArgumentException("unknown option" + (unknown.size() > 1 ? "s " : " ")
          + String.join(", ", unknown) + " for the " + engine + " engine; it reads "
          + (known.isEmpty() ? "none" : String.join(", ", new TreeSet<>(known))));
    }
    return this;
  }

  /** Every option set, by name. */
  public Map<String, String> asMap() {
    return java.util.Collections.unmodifiableMap(values);
  }

  @Override
  public String toString() {
    return "KvOptions" + values;
  }
}
