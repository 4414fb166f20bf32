package dev.kvasir.examples.watch;

import dev.kvasir.Kv;
import java.util.concurrent.CountDownLatch;

/**
 * Prints the feature flags each time they change, until Ctrl-C: {@code java …
 * dev.kvasir.examples.watch.WatchApp [app.sqlite3]}. Change them from another terminal with
 * {@code kvasir set --db app.sqlite3 '["config","flags"]' '{"darkMode":true}'}, or from Deno.
 */
public final class WatchApp {
  private WatchApp() {}

  public static void main(String[] args) throws InterruptedException {
    String path = args.length > 0 ? args[0] : "app.sqlite3";
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
    try (Kv kv = Kv.open(path);
        FeatureFlags flags = new FeatureFlags(kv, f -> System.out.println("flags: " + f))) {
      stop.await();
    }
  }
}
