package dev.kvasir.cli;

import dev.kvasir.base.KvOptions;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The engine options that {@code --db-option NAME=VALUE} gives a command (docs/operations.md
 * §2): the engine reads them as a Java application's {@code KvOptions}, and refuses one it does
 * not know, naming those it does.
 */
final class EngineOptions {
  private EngineOptions() {}

  /** {@code given} (null when none were) as options for an engine. */
  static KvOptions of(@Nullable Map<String, String> given) {
    KvOptions options = KvOptions.defaults();
    if (given != null) {
      for (Map.Entry<String, String> e : given.entrySet()) {
        options = options.with(e.getKey().strip(), e.getValue().strip());
      }
    }
    return options;
  }
}
