package dev.kvasir.connect;

import dev.kvasir.base.KvOptions;
import dev.kvasir.spi.EngineProvider;
import dev.kvasir.spi.KvEngine;

/** Opens a {@link RemoteEngine} for {@code http://} and {@code https://} URLs, as Deno does. */
public final class RemoteEngineProvider implements EngineProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public RemoteEngineProvider() {}

  @Override
  public String name() {
    return "remote";
  }

  @Override
  public String locations() {
    return "an http:// or https:// KV Connect URL";
  }

  @Override
  public int priority(String location) {
    return location.startsWith("http://") || location.startsWith("https://") ? 10 : -1;
  }

  @Override
  public KvEngine open(String location, KvOptions options) {
    return RemoteEngine.open(RemoteConfig.from(location, options));
  }

  @Override
  public String displayName() {
    return "KV Connect";
  }
}
