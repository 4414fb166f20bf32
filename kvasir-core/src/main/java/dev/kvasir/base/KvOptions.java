package dev.kvasir.base;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

  /** Every option set, by name. */
  public Map<String, String> asMap() {
    return java.util.Collections.unmodifiableMap(values);
  }

  @Override
  public String toString() {
    return "KvOptions" + values;
  }
}
