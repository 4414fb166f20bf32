package dev.kvasir.it.modules;

import static java.util.stream.Collectors.joining;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.value.KvU64;

/**
 * Opens each database location given, writes a record and a counter, reads them back and
 * prints one line per location: {@code ok <location>}; then the Kvasir modules of the boot
 * layer, one line {@code modules <name>...}. Exits 1 on the first mismatch.
 *
 * <p>Usage: {@code OpenEverything [--token T] LOCATION...}; the token is used for
 * {@code http://} locations.
 */
public final class OpenEverything {
  /** What the application stores. */
  public record Greeting(String text, int times) {}

  private OpenEverything() {}

  public static void main(String[] args) {
    String token = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--token")) {
        token = args[++i];
        continue;
      }
      String location = args[i];
      KvOptions options = location.startsWith("http")
          ? KvOptions.defaults().with("accessToken", token) : KvOptions.defaults();
      try (Kv kv = Kv.open(location, options)) {
        Greeting written = new Greeting("hello from the module path", 3);
        kv.set(KvKey.of("greeting"), written);
        kv.atomic().sum(KvKey.of("visits"), 1).commit();
        Greeting read = kv.get(KvKey.of("greeting")).value(Greeting.class);
        Object visits = kv.get(KvKey.of("visits")).value();
        if (!written.equals(read) || !KvU64.of(1).equals(visits)) {
          System.out.println("mismatch " + location + ": " + read + ", " + visits);
          System.exit(1);
        }
        System.out.println("ok " + location);
      }
    }
    System.out.println("modules " + ModuleLayer.boot().modules().stream().map(Module::getName)
        .filter(name -> name.startsWith("dev.kvasir")).sorted().collect(joining(" ")));
  }
}
