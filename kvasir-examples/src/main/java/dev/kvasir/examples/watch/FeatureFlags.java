package dev.kvasir.examples.watch;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.mapping.TypeRef;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A live copy of the feature flags stored under {@code ["config", "flags"]} (an object of
 * booleans, written by any process: Java, Deno, {@code kvasir set}), kept current by a watch
 * loop on a thread of its own. Closing it ends the loop.
 */
public final class FeatureFlags implements AutoCloseable {
  public static final KvKey KEY = KvKey.of("config", "flags");
  private static final TypeRef<Map<String, Boolean>> FLAGS = new TypeRef<>() {};

  private final WatchStream watch;
  private final Thread loop;
  private volatile Map<String, Boolean> current = Map.of();

  /**
   * Starts watching; {@code onChange} hears each new set of flags, on the loop's thread, the
   * first time with the flags as they are now.
   */
  public FeatureFlags(Kv kv, Consumer<Map<String, Boolean>> onChange) {
    this.watch = kv.watch(List.of(KEY));
    this.loop = new Thread(() -> {
      // Each emission is the watched key's entry after a change (the first: as it is now).
      for (List<KvEntry> state : watch) {
        Map<String, Boolean> flags = state.get(0).value(FLAGS);
        current = flags == null ? Map.of() : Map.copyOf(flags);
        onChange.accept(current);
      }
    }, "feature-flags");
    loop.setDaemon(true);
    loop.start();
  }

  /** Whether {@code flag} is on in the latest flags seen. */
  public boolean enabled(String flag) {
    return current.getOrDefault(flag, false);
  }

  /** Ends the watch and waits for the loop to finish. */
  @Override
  public void close() {
    watch.close();
    try {
      loop.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
