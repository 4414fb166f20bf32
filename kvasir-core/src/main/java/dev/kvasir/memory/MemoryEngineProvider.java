package dev.kvasir.memory;

import dev.kvasir.base.KvOptions;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;
import java.util.List;

/** Opens a {@link MemoryEngine} for {@code ":memory:"}, at the lowest priority. */
public final class MemoryEngineProvider implements EngineProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public MemoryEngineProvider() {}

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public String locations() {
    return "\":memory:\"";
  }

  @Override
  public int priority(String location) {
    return ":memory:".equals(location) ? 0 : -1;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    options.requireKnown("memory", List.of()); // it reads none
    return MemoryEngine.open();
  }
}
