package dev.kvasir.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real Deno (npm {@code deno@2.9.6}) as an interop peer. It is looked for in the system
 * property {@code kvasir.deno}, the environment variable {@code KVASIR_DENO}, then the cache
 * {@code .ci/run} installs into ({@code ~/.cache/kvasir/deno-2.9.6}). When it is missing, tests
 * are skipped with the reason, unless {@code KVASIR_REQUIRE_DENO} is set (CI), where they fail.
 *
 * <p>Scripts come from this module's {@code deno/} resources and run with the vectors next to
 * them: {@code vectors/values.json}, {@code vectors/keys.json}.
 */
public final class DenoPeer {
  /** The version the interop tests were written against. */
  public static final String VERSION = "2.9.6";

  private static final List<String> SCRIPTS =
      List.of("vectors.ts", "write_all.ts", "verify_all.ts", "cas.ts", "sequence.ts",
          "queue.ts", "watched_writes.ts", "remote.ts");

  private final Path binary;
  private final Path work;
  private final java.util.Map<String, String> environment = new java.util.HashMap<>();

  private DenoPeer(Path binary, Path work) {
    this.binary = binary;
    this.work = work;
  }

  /** The peer, with scripts unpacked into {@code work}; skips or fails the test if missing. */
  public static DenoPeer require(Path work) {
    Optional<Path> binary = locate();
    if (binary.isEmpty()) {
      String reason = "Deno " + VERSION + " not found: run `npm install --prefix ~/.cache/kvasir/"
          + "deno-" + VERSION + " deno@" + VERSION + "` or set -Dkvasir.deno=/path/to/deno";
      if (System.getenv("KVASIR_REQUIRE_DENO") != null) {
        throw new AssertionError(reason + " (KVASIR_REQUIRE_DENO is set)");
      }
      Assumptions.abort(reason);
    }
    try {
      Files.createDirectories(work.resolve("vectors"));
      for (String script : SCRIPTS) {
        copy("/deno/" + script, work.resolve(script));
      }
      copy("/vectors/denokv/values.json", work.resolve("vectors/values.json"));
      copy("/vectors/denokv/keys.json", work.resolve("vectors/keys.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new DenoPeer(binary.get(), work);
  }

  private static Optional<Path> locate() {
    List<String> candidates = new ArrayList<>();
    Optional.ofNullable(System.getProperty("kvasir.deno")).ifPresent(candidates::add);
    Optional.ofNullable(System.getenv("KVASIR_DENO")).ifPresent(candidates::add);
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "kvasir", "deno-" + VERSION,
        "node_modules");
    candidates.add(cache.resolve("deno/deno").toString());
    candidates.add(cache.resolve("@deno/linux-x64-glibc/deno").toString());
    candidates.add(cache.resolve("@deno/darwin-arm64/deno").toString());
    return candidates.stream().map(Path::of).filter(Files::isExecutable).findFirst();
  }

  private static void copy(String resource, Path to) throws IOException {
    try (InputStream in = DenoPeer.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      Files.copy(in, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The directory holding the vectors, as scripts expect it. */
  public Path vectorsDir() {
    return work.resolve("vectors");
  }

  /** Sets an environment variable for the scripts started from now on. */
  public DenoPeer env(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /** Starts {@code deno run -A --unstable-kv <script> args…}. */
  public Process start(String script, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "run", "-A",
        "--unstable-kv", "--no-check", work.resolve(script).toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("DENO_DIR", work.resolve(".deno").toString());
    pb.environment().put("NO_COLOR", "1");
    pb.environment().putAll(environment);
    return pb.start();
  }

  /**
   * Runs a script to completion.
   *
   * @return its output
   * @throws AssertionError if it fails or takes more than two minutes, with its output
   */
  public String run(String script, String... args) throws IOException, InterruptedException {
    Process p = start(script, args);
    return finish(p, script);
  }

  /** Waits for a started script; see {@link #run}. */
  public static String finish(Process p, String script) throws IOException, InterruptedException {
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(script + " did not finish within 120 s");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new AssertionError(script + " exited with " + p.exitValue() + ":\n" + out);
    }
    return out.strip();
  }
}
