package dev.kvasir.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the build put an npm package the interop tests run against, and what happens when it
 * is not there.
 *
 * <p>The modules with interop tests install their peers before the tests run
 * ({@code build-support/install-peers.mjs}, bound to {@code process-test-classes}) into
 * {@code <cache>/<name>-<version>}, the cache being the system property
 * {@code kvasir.peers.dir} (the build sets {@code ~/.cache/kvasir}). A test that needs a
 * missing peer <em>fails</em> with the reason and the command that installs it; it is skipped
 * only when the build was told to with {@code -DskipInterop} (the system property
 * {@code kvasir.skipInterop}).
 */
public final class NpmPeer {
  private NpmPeer() {}

  /** The directory peers are installed into. */
  public static Path cache() {
    String configured = System.getProperty("kvasir.peers.dir");
    return configured != null && !configured.isBlank()
        ? Path.of(configured)
        : Path.of(System.getProperty("user.home"), ".cache", "kvasir");
  }

  /** The installation directory of {@code name@version}: {@code @deno/kv} → {@code deno-kv-…}. */
  public static Path home(String name, String version) {
    return cache().resolve(name.replaceFirst("^@", "").replace('/', '-') + "-" + version);
  }

  /** True when the build asked to skip interop tests ({@code -DskipInterop}). */
  public static boolean skipped() {
    return Boolean.parseBoolean(System.getProperty("kvasir.skipInterop", "false"));
  }

  /**
   * The first of {@code candidates} (paths inside the package's installation) that exists and,
   * if {@code executable}, may be run; otherwise the calling test aborts (opt-out) or fails.
   */
  public static Path require(String name, String version, List<String> candidates,
      boolean executable) {
    if (skipped()) {
      Assumptions.abort(name + "@" + version + " not used: interop tests skipped by -DskipInterop");
    }
    Path home = home(name, version);
    Optional<Path> found = candidates.stream().map(home::resolve)
        .filter(p -> executable ? Files.isExecutable(p) : Files.isRegularFile(p)).findFirst();
    if (found.isEmpty()) {
      throw new AssertionError(name + "@" + version + " is not installed: none of " + candidates
          + " exists under " + home + ". The build installs it before the tests (`./mvnw -B"
          + " verify`); by hand: `node build-support/install-peers.mjs " + cache() + " " + name
          + "@" + version + "`. To build without interop tests: -DskipInterop.");
    }
    return found.get();
  }
}
